/// Base64 (RFC 4648): the standard alphabet with padding, and the URL-safe alphabet with or without it.
///
/// Decoding is strict so that every byte string has exactly one accepted text: no whitespace or line
/// breaks, no characters outside the alphabet, padding only at the end and only as much as the length
/// needs, and the unused low bits of the last character must be zero.
public enum Base64 {
    private static let standardAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardValues = reverse(standardAlphabet)
    private static let urlValues = reverse(urlAlphabet)

    /// Standard alphabet, padded with `=`.
    public static func encode(_ bytes: [UInt8]) -> String { encode(bytes, alphabet: standardAlphabet, padded: true) }

    /// The length of the standard, padded Base64 of `count` bytes.
    public static func encodedLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Writes the standard, padded Base64 of `bytes` into `out` and returns the number of bytes written,
    /// `encodedLength(bytes.count)`; nil, with nothing written, when `out` is shorter than that. For hot
    /// paths that compare or copy the text and need no String.
    public static func encode(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int? {
        let length = encodedLength(bytes.count)
        guard out.count >= length else { return nil }
        let alphabet = standardAlphabet
        var i = 0, o = 0
        while i < bytes.count {
            let rest = bytes.count - i
            let n = UInt32(bytes[i]) << 16 | (rest > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (rest > 2 ? UInt32(bytes[i + 2]) : 0)
            out[o] = alphabet[Int(n >> 18 & 63)]
            out[o + 1] = alphabet[Int(n >> 12 & 63)]
            out[o + 2] = rest > 1 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "=")
            out[o + 3] = rest > 2 ? alphabet[Int(n & 63)] : UInt8(ascii: "=")
            i += 3
            o += 4
        }
        return length
    }

    /// Strict decode of standard, padded Base64; nil on any deviation.
    public static func decode(_ s: String) -> [UInt8]? {
        let text = Array(s.utf8)
        guard text.count % 4 == 0 else { return nil }
        return decode(text, values: standardValues)
    }

    /// URL-safe alphabet (`-` and `_`), padded or not.
    public static func encodeURLSafe(_ bytes: [UInt8], padded: Bool = false) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: padded)
    }

    /// Strict decode of URL-safe Base64, accepted with or without padding (if present it must be complete).
    public static func decodeURLSafe(_ s: String) -> [UInt8]? {
        let text = Array(s.utf8)
        if text.last == UInt8(ascii: "=") {
            guard text.count % 4 == 0 else { return nil }
        } else if text.count % 4 == 1 {
            return nil   // one leftover character cannot carry a whole byte
        }
        return decode(text, values: urlValues)
    }

    // MARK: - Implementation

    private static func reverse(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
            if padded { out += [UInt8(ascii: "="), UInt8(ascii: "=")] }
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
            if padded { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes text whose length has been checked by the caller; padding, if any, is validated here.
    private static func decode(_ text: [UInt8], values: [UInt8]) -> [UInt8]? {
        var end = text.count
        var padding = 0
        while end > 0, text[end - 1] == UInt8(ascii: "="), padding < 2 {
            end -= 1
            padding += 1
        }
        // With padding, the unpadded length must be exactly what the padding implies.
        if padding > 0, (end + padding) % 4 != 0 || end % 4 != 4 - padding { return nil }
        var out = [UInt8]()
        out.reserveCapacity(end / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in text[0..<end] {
            let v = values[Int(c)]
            guard v != 0xFF else { return nil }   // outside the alphabet, including a misplaced "="
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits must be zero; 6 leftover bits means a lone final character (no whole byte).
        guard bits < 6, accumulator == 0 else { return nil }
        return out
    }
}
