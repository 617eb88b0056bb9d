import Synchronization

/// Request ids: a client's `X-Request-Id` when it is sane, else a per-server random prefix plus a counter
/// (unique per process without a random draw per request). Shared by all threads.
final class RequestIDSource: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = String(generator.next() as UInt64, radix: 16) + "-"
    }

    /// The next generated id, e.g. "9f2c41d07a3be815-2a".
    func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        // Hex digits written straight into the string's storage: this runs once per request.
        var digits = 1
        while digits < 16 && value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        let prefixLength = prefix.utf8.count
        return String(unsafeUninitializedCapacity: prefixLength + digits) { buffer in
            var index = 0
            for byte in prefix.utf8 {
                buffer[index] = byte
                index += 1
            }
            var shift = 4 * (digits - 1)
            while shift >= 0 {
                buffer[index] = RequestIDSource.hexDigits[Int((value >> UInt64(shift)) & 0xF)]
                index += 1
                shift -= 4
            }
            return index
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The client's id when sane, else a new one.
    func id(for header: String?) -> String {
        RequestIDSource.sanitize(header) ?? next()
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
