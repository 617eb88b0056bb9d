import Core
import Synchronization

/// Request ids: a client's `X-Request-Id` when it is sane, else a per-server random prefix plus a counter
/// (unique per process without a random draw per request). Shared by all threads.
final class RequestIDSource: Sendable {
    /// The random prefix and its dash, as bytes: copied into every id.
    private let prefixBytes: [UInt8]
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        // Eight hex digits, zero-padded: with a dash and up to six digits of counter an id is 15 bytes, which
        // Swift keeps inline in the string value instead of allocating storage (the first 16.7 million ids
        // of a process). 32 random bits tell one process's ids from another's.
        let random = String(generator.next() as UInt32, radix: 16)
        prefixBytes = Array((String(repeating: "0", count: 8 - random.utf8.count) + random + "-").utf8)
    }

    /// The next generated id, e.g. "9f2c41d0-2a".
    func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        // Hex digits written straight into the string's storage: this runs once per request.
        var digits = 1
        while digits < 16 && value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        return prefixBytes.withUnsafeBufferPointer { prefix in
            String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
                guard let target = buffer.baseAddress, let source = prefix.baseAddress,
                      buffer.count >= prefix.count + digits else { return 0 }
                target.update(from: source, count: prefix.count)
                var index = prefix.count + digits
                var rest = value
                while index > prefix.count {
                    index -= 1
                    target[index] = Hex.digit(UInt8(truncatingIfNeeded: rest & 0xF))
                    rest >>= 4
                }
                return prefix.count + digits
            }
        }
    }


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
