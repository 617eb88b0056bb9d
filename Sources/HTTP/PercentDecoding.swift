import Core

/// Percent-decoding of paths (no '+' rule); invalid escapes, NUL or invalid UTF-8 -> nil.
public enum PercentDecoding {
    /// Decodes `%XX` escapes in a path (or path segment). '+' stays '+', since the form rule that turns it
    /// into a space applies only to query strings and form bodies. Returns nil for a truncated or non-hex
    /// escape, a NUL byte (raw or `%00`, which file-system and C-string consumers would cut at), or bytes
    /// that are not valid UTF-8 once decoded.
    public static func decodePath(_ s: Substring) -> String? {
        var text = s
        let result = text.withUTF8 { buf -> String? in
            let raw = UnsafeRawBufferPointer(buf)
            switch PercentCoding.decode(raw, 0, raw.count, plusIsSpace: false) {
            case .success(let decoded):
                return decoded.utf8.contains(0) ? nil : decoded
            case .badEscape, .badUTF8:
                return nil
            }
        }
        return result
    }
}

/// The shared percent-decoding engine for paths, query strings and form bodies.
enum PercentCoding {
    /// The outcome of decoding one range.
    enum Result {
        case success(String)
        /// The escape at this byte offset (relative to the whole buffer) is truncated or not hexadecimal.
        case badEscape(offset: Int)
        case badUTF8
    }

    /// Decodes `buf[start..<end]`. Without any '%' (or '+' when it means space) the bytes are only
    /// validated, so the common unescaped case builds the String directly without a scratch copy.
    static func decode(_ buf: UnsafeRawBufferPointer, _ start: Int, _ end: Int, plusIsSpace: Bool) -> Result {
        var needsWork = false
        for i in start..<end {
            let b = buf[i]
            if b == 0x25 || (plusIsSpace && b == 0x2B) {
                needsWork = true
                break
            }
        }
        if !needsWork {
            guard let text = validUTF8(UnsafeRawBufferPointer(rebasing: buf[start..<end])) else { return .badUTF8 }
            return .success(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let b = buf[i]
            if b == 0x25 {
                guard i + 2 < end, let high = Hex.value(buf[i + 1]), let low = Hex.value(buf[i + 2]) else {
                    return .badEscape(offset: i)
                }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(plusIsSpace && b == 0x2B ? 0x20 : b)
                i += 1
            }
        }
        guard let text = out.withUnsafeBytes({ validUTF8($0) }) else { return .badUTF8 }
        return .success(text)
    }

    /// The bytes as a String when they are valid UTF-8, else nil. ASCII (nearly every path, name and
    /// value) is checked with a plain loop and made without the general validator, which costs several
    /// times as much on short texts and runs for every query parameter.
    static func validUTF8(_ bytes: UnsafeRawBufferPointer) -> String? {
        for byte in bytes where byte >= 0x80 {
            return String(validating: bytes, as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` escapes into raw bytes without any UTF-8 check; nil on a bad escape.
    static func decodeBytes(_ buf: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            if buf[i] == 0x25 {
                guard i + 2 < end, let high = Hex.value(buf[i + 1]), let low = Hex.value(buf[i + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(buf[i])
                i += 1
            }
        }
        return out
    }
}
