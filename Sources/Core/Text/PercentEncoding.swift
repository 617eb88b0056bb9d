/// RFC 3986 percent-encoding for text the server writes into URLs, headers and form bodies.
public enum PercentEncoding {
    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Every byte but the unreserved characters `A-Z a-z 0-9 - . _ ~` as `%XX` (upper-case hex): `/`, `+`,
    /// `&`, `=`, spaces, CR and LF included, so the result is safe as a path segment, a query value or a
    /// header value, and any decoder reads back the same bytes.
    public static func unreserved(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(upperHex[Int(byte >> 4)])
                out.append(upperHex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
