/// Request ids: a client's `X-Request-Id` when it is sane, else a loop-local random prefix plus a counter
/// (unique per process without a random draw per request).
struct RequestIDGenerator {
    private let prefix: [UInt8]
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        prefix = Array(String(value, radix: 16).utf8)
    }

    /// The next generated id, e.g. "9f2c41d07a3be815-2a".
    mutating func next() -> String {
        counter &+= 1
        var bytes = prefix
        bytes.append(UInt8(ascii: "-"))
        bytes.append(contentsOf: String(counter, radix: 16).utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The client's id if it is 1...128 characters of letters, digits and `-_.:@/+=`; nil otherwise (it is
    /// echoed and logged, so anything else is replaced).
    static func sanitize(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128 else { return nil }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "@"),
                 UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "="):
                continue
            default:
                return nil
            }
        }
        return value
    }
}
