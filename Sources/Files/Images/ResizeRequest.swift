/// What a download asked for: the `width`, `height` and `thumb` parameters, read by the resizing rules
/// of the Backbeam spec (§5.3.5), which follow PocketBase's `thumb` grammar:
///
/// - `width` / `height`: integers; a missing, zero, negative or non-numeric value is absent (a decimal
///   such as `200.0` counts by its integer part); each is clamped to `maxSide`. Fit inside the box
///   (one side: scale to it), never upscaling.
/// - `thumb`, read only when `width` and `height` are both absent, matching `^(\d+)x(\d+)(t|b|f)?$`:
///   `WxH` cover the box and crop it centred, `t` anchored at the top, `b` at the bottom; `f` fit inside
///   without cropping or upscaling; `0xH` / `Wx0` scale to that height / width (suffix ignored).
///   Cover and `0xH` / `Wx0` may upscale. Sides are clamped to `maxSide`. Anything else, and `0x0`,
///   asks for the original.
public struct ResizeRequest: Sendable, Hashable {
    /// Where a cover crop keeps its rectangle. The crop only ever cuts one axis: `top` and `bottom`
    /// apply when rows are cut (the picture is taller than the box); columns are always cut evenly.
    public enum Anchor: String, Sendable, Hashable {
        case center
        case top
        case bottom
    }

    /// The resize asked for.
    public enum Mode: Sendable, Hashable {
        /// No (valid) resize: the original is served.
        case original
        /// Fit inside the box (nil: that side is free), never upscaling.
        case fit(width: Int?, height: Int?)
        /// Cover the box, then crop it to exactly width x height. May upscale.
        case cover(width: Int, height: Int, anchor: Anchor)
        /// Scale to this width, keeping the aspect ratio. May upscale.
        case scaleToWidth(Int)
        /// Scale to this height, keeping the aspect ratio. May upscale.
        case scaleToHeight(Int)
    }

    /// The largest side a request may name (the spec's 4096).
    public static let defaultMaxSide = 4096

    /// The resize asked for.
    public let mode: Mode

    /// A request for `mode`, normalised as the parameters would be: sides clamped to `maxSide`, a
    /// non-positive side absent (`fit`) or the whole request the original (`cover`, `scaleTo...`).
    public init(mode: Mode, maxSide: Int = defaultMaxSide) {
        let side = min(max(1, maxSide), Self.largestMaxSide)
        func clamp(_ value: Int?) -> Int? { value.flatMap { $0 > 0 ? min($0, side) : nil } }
        switch mode {
        case .original:
            self.mode = .original
        case .fit(let w, let h):
            let (cw, ch) = (clamp(w), clamp(h))
            self.mode = cw == nil && ch == nil ? .original : .fit(width: cw, height: ch)
        case .cover(let w, let h, let anchor):
            if let cw = clamp(w), let ch = clamp(h) {
                self.mode = .cover(width: cw, height: ch, anchor: anchor)
            } else {
                self.mode = .original
            }
        case .scaleToWidth(let w):
            self.mode = clamp(w).map { .scaleToWidth($0) } ?? .original
        case .scaleToHeight(let h):
            self.mode = clamp(h).map { .scaleToHeight($0) } ?? .original
        }
    }

    /// The largest `maxSide` honoured, whatever is configured: keeps every product of sizes in the
    /// planner far from overflowing.
    public static let largestMaxSide = 1 << 16

    /// Reads the download parameters (nil when absent) with sides clamped to `maxSide`.
    public init(width: String?, height: String?, thumb: String?, maxSide: Int = defaultMaxSide) {
        let side = min(max(1, maxSide), Self.largestMaxSide)
        let w = width.flatMap { Self.dimension($0) }.map { min($0, side) }
        let h = height.flatMap { Self.dimension($0) }.map { min($0, side) }
        if w != nil || h != nil {
            mode = .fit(width: w, height: h)
        } else if let thumb {
            mode = Self.thumb(thumb, maxSide: side)
        } else {
            mode = .original
        }
    }

    /// A positive pixel count from `text`: digits, optionally followed by a dot and digits (the
    /// integer part counts). Nil for anything else, zero included. Huge values saturate (then clamp).
    static func dimension(_ text: String) -> Int? {
        var value = 0
        var digits = 0, fraction = 0
        var sawDot = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard !sawDot, digits > 0 else { return nil }
                sawDot = true
            } else if let digit = digitValue(byte) {
                if sawDot {
                    fraction += 1
                } else {
                    value = accumulate(value, digit)
                    digits += 1
                }
            } else {
                return nil
            }
        }
        guard digits > 0, !sawDot || fraction > 0 else { return nil }
        return value > 0 ? value : nil
    }

    /// The value of an ASCII digit.
    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte &- UInt8(ascii: "0")) : nil
    }

    /// `value * 10 + digit`, saturating well below overflow: every side is clamped to a few thousand
    /// afterwards.
    private static func accumulate(_ value: Int, _ digit: Int) -> Int {
        value >= Int.max / 160 ? Int.max / 16 : value * 10 + digit
    }

    /// The `thumb` grammar: `^(\d+)x(\d+)(t|b|f)?$`.
    static func thumb(_ text: String, maxSide: Int) -> Mode {
        var width = 0, height = 0
        var widthDigits = 0, heightDigits = 0
        var sawX = false
        var suffix: UInt8?
        for byte in text.utf8 {
            guard suffix == nil else { return .original }             // nothing may follow the suffix
            if let digit = digitValue(byte) {
                if sawX {
                    height = accumulate(height, digit)
                    heightDigits += 1
                } else {
                    width = accumulate(width, digit)
                    widthDigits += 1
                }
            } else if byte == UInt8(ascii: "x"), !sawX, widthDigits > 0 {
                sawX = true
            } else if sawX, heightDigits > 0,
                      byte == UInt8(ascii: "t") || byte == UInt8(ascii: "b") || byte == UInt8(ascii: "f") {
                suffix = byte
            } else {
                return .original
            }
        }
        guard widthDigits > 0, heightDigits > 0 else { return .original }
        let w = min(width, maxSide), h = min(height, maxSide)
        switch (w, h) {
        case (0, 0): return .original
        case (0, _): return .scaleToHeight(h)
        case (_, 0): return .scaleToWidth(w)
        default: break
        }
        switch suffix {
        case UInt8(ascii: "f"): return .fit(width: w, height: h)
        case UInt8(ascii: "t"): return .cover(width: w, height: h, anchor: .top)
        case UInt8(ascii: "b"): return .cover(width: w, height: h, anchor: .bottom)
        default: return .cover(width: w, height: h, anchor: .center)
        }
    }

    /// A short stable text naming the mode, part of a variant's cache key ("fit-200x0", "cover-100x100t").
    public var token: String {
        // Written into a stack buffer and made a string once (a cached download puts the token in its ETag on
        // every request): the interpolations formatted and joined their pieces one string at a time.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.tokenCapacity) { buffer -> String in
            var writer = TokenWriter(buffer: buffer)
            switch mode {
            case .original:
                writer.put("original")
            case .fit(let w, let h):
                writer.put("fit-")
                writer.put(w ?? 0)
                writer.put("x")
                writer.put(h ?? 0)
            case .cover(let w, let h, let anchor):
                writer.put("cover-")
                writer.put(w)
                writer.put("x")
                writer.put(h)
                if anchor == .top { writer.put("t") } else if anchor == .bottom { writer.put("b") }
            case .scaleToWidth(let w):
                writer.put("width-")
                writer.put(w)
            case .scaleToHeight(let h):
                writer.put("height-")
                writer.put(h)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<writer.count]), as: UTF8.self)
        }
    }

    /// Room for the longest token: "cover-" and two sides of at most 20 characters each (`Int.min`), "x", "b".
    static let tokenCapacity = 64

    /// Appends a token's pieces to a buffer of `tokenCapacity` bytes.
    struct TokenWriter {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func put(_ text: StaticString) {
            text.withUTF8Buffer { bytes in
                for byte in bytes where count < buffer.count {
                    buffer[count] = byte
                    count += 1
                }
            }
        }

        /// `value` in decimal, as `String(value)` writes it.
        mutating func put(_ value: Int) {
            // Sides are clamped and positive; anything else takes the general path.
            guard value >= 0 else {
                for byte in String(value).utf8 where count < buffer.count {
                    buffer[count] = byte
                    count += 1
                }
                return
            }
            var divisor = 1
            // `divisor <= value / 10` keeps `divisor * 10 <= value`: no overflow.
            while divisor <= value / 10 { divisor *= 10 }
            var rest = value
            while divisor > 0 && count < buffer.count {
                buffer[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor)
                count += 1
                rest %= divisor
                divisor /= 10
            }
        }
    }

    /// `value` as `TokenWriter` writes it (for tests).
    static func tokenDecimal(_ value: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: tokenCapacity) { buffer -> String in
            var writer = TokenWriter(buffer: buffer)
            writer.put(value)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<writer.count]), as: UTF8.self)
        }
    }
}
