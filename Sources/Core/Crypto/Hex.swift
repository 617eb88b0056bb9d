/// Base16 text for bytes, as used for digests and tokens.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`, two characters per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes of hex text (either case), or nil for odd length or any non-hex character.
    public static func decode(_ s: String) -> [UInt8]? {
        let utf8 = Array(s.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i + 1 < utf8.count {
            guard let high = value(utf8[i]), let low = value(utf8[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    /// The value of one hexadecimal digit (either case), nil for any other byte. Inlinable: the HTTP
    /// parser's chunk sizes and every API's percent decoding call it once a byte.
    @inlinable
    public static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c &- 0x30
        case 0x61...0x66: return c &- 0x61 &+ 10
        case 0x41...0x46: return c &- 0x41 &+ 10
        default: return nil
        }
    }

    /// The lower-case hex digit of a value below 16.
    @inlinable
    public static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble
    }
}
