/// Writes compact JSON text as UTF-8 bytes: the server's one JSON writer, behind `JSON.serialized`,
/// every API's hand-built bodies and the canonical forms that are hashed.
///
/// Strings escape only what RFC 8259 requires: `"` and `\`, and control characters U+0000-U+001F
/// (named or as `\u00XX` with lowercase hex, see `ControlEscapes`). `/` and every non-ASCII character
/// are written raw as UTF-8. Numbers are written as their stored text (the lexeme received), and
/// already-serialized JSON can be spliced in verbatim with `raw`. With `sortKeys`, members of every
/// object are ordered by the bytes of their keys' UTF-8 (the same order as Unicode scalar values, and
/// SQLite's BINARY collation), so equal objects give equal bytes; otherwise insertion order is kept.
///
/// The small pieces are inlinable: bodies built member by member in other modules (Datastore's
/// `put_delta` and `get_deltas` answers) then append straight into the buffer, as a writer of their own
/// would.
public struct JSONWriter {
    /// How control characters are escaped inside strings. Both are valid JSON; each keeps the bytes its
    /// users have always sent.
    public enum ControlEscapes: Sendable {
        /// `\b \f \n \r \t` by name and the rest as `\u00XX`, as `JSON.stringify` does: every API's bodies.
        case named
        /// `\n \r \t` by name and the rest, backspace and form feed too, as `\u00XX`: the HTTP layer's
        /// own plain error bodies.
        case namedWhitespace
    }

    /// The bytes written so far.
    @usableFromInline var buffer: [UInt8]
    /// Sort object keys bytewise (canonical form) instead of keeping their order.
    public var sortKeys: Bool
    /// How control characters in strings are escaped.
    public var controlEscapes: ControlEscapes

    /// An empty writer.
    @inlinable
    public init(sortKeys: Bool = false, controlEscapes: ControlEscapes = .named) {
        self.sortKeys = sortKeys
        self.controlEscapes = controlEscapes
        buffer = []
        buffer.reserveCapacity(256)
    }

    /// A writer that appends to `bytes` (taken over, not copied, when the caller gives up its own).
    @inlinable
    public init(continuing bytes: [UInt8]) {
        sortKeys = false
        controlEscapes = .named
        buffer = bytes
    }

    /// The bytes written so far.
    @inlinable
    public var bytes: [UInt8] { buffer }

    /// The text written so far.
    public var text: String { String(decoding: buffer, as: UTF8.self) }

    /// Appends `text` as it is (JSON punctuation, or already-serialized JSON).
    @inlinable
    public mutating func raw(_ text: String) { buffer.append(contentsOf: text.utf8) }

    /// Appends one byte as it is.
    @inlinable
    public mutating func raw(_ byte: UInt8) { buffer.append(byte) }

    /// An integer in decimal.
    @inlinable
    public mutating func int(_ value: Int64) { raw(String(value)) }

    /// An integer in decimal.
    @inlinable
    public mutating func int(_ value: Int) { raw(String(value)) }

    /// Writes `"key":`, preceded by the separating comma when `first` is false.
    @inlinable
    public mutating func key(_ name: String, first: Bool) {
        if !first { raw(UInt8(ascii: ",")) }
        string(name)
        raw(UInt8(ascii: ":"))
    }

    /// `[e1,e2,...]`, each element written by `element`.
    @inlinable
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        raw(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { raw(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        raw(UInt8(ascii: "]"))
    }

    /// Any JSON value; numbers exactly as received.
    // Recursion depth equals the value's nesting. Values built by the parser are bounded by its
    // `maxDepth`; values built in code are as deep as the code made them.
    public mutating func value(_ json: JSON) {
        switch json {
        case .null: buffer += [0x6E, 0x75, 0x6C, 0x6C]                    // null
        case .bool(true): buffer += [0x74, 0x72, 0x75, 0x65]              // true
        case .bool(false): buffer += [0x66, 0x61, 0x6C, 0x73, 0x65]       // false
        case .number(let n): appendUTF8(of: n.text)
        case .string(let s): string(s)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                value(element)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members): object(members)
        }
    }

    /// An object, keys in order or sorted bytewise when `sortKeys` is set.
    public mutating func object(_ object: JSONObject) {
        buffer.append(UInt8(ascii: "{"))
        var first = true
        let members = sortKeys ? object.pairs.sorted { Self.bytewiseLess($0.key, $1.key) } : object.pairs
        for member in members {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            string(member.key)
            buffer.append(UInt8(ascii: ":"))
            value(member.value)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// A quoted string, copying runs of bytes that need no escape in one append.
    public mutating func string(_ s: String) {
        buffer.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            while i < bytes.count {
                // Eight bytes at a time while none needs escaping: most strings are long plain runs.
                if i &+ 8 <= bytes.count, let base = bytes.baseAddress,
                   !Self.needsEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                    i &+= 8
                    continue
                }
                let c = bytes[i]
                i &+= 1
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<(i - 1)]))
                runStart = i
                buffer.append(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                case 0x08 where controlEscapes == .named: buffer.append(UInt8(ascii: "b"))
                case 0x0C where controlEscapes == .named: buffer.append(UInt8(ascii: "f"))
                default:
                    // c < 0x20 here, so both nibbles index the 16-entry table.
                    buffer += [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                               Self.hexDigits[Int(c >> 4)], Self.hexDigits[Int(c & 0x0F)]]
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is below 0x20, `"` or `\`. Each test is exact about whether
    /// some byte matches (a borrow can only mark bytes above a real match), which is all the caller asks.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let below = (word &- ones &* 0x20) & ~word
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        return (below | isQuote | isBackslash) & highs != 0
    }

    /// One value serialized compactly.
    public static func serialize(_ json: JSON, sortKeys: Bool = false) -> String {
        var w = JSONWriter(sortKeys: sortKeys)
        w.value(json)
        return w.text
    }

    /// Bytewise (UTF-8) ordering of keys, which is also SQLite's BINARY collation.
    public static func bytewiseLess(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendUTF8(of s: String) {
        var s = s
        s.withUTF8 { buffer.append(contentsOf: $0) }
    }
}
