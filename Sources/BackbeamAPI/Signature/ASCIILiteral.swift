#if canImport(Glibc)
import Glibc
#endif

/// Byte comparisons of strings with literals, for the names every signed request is checked against.
enum ASCIILiteral {
    /// True when `text` has exactly the UTF-8 bytes of `literal`: the lengths, then one `memcmp` over the
    /// string's contiguous storage (native strings always have it; others are compared byte by byte).
    static func equals(_ text: String, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard text.utf8.count == count else { return false }
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return count == 0 }
            return memcmp(base, literal.utf8Start, count) == 0
        }
        if let fast { return fast }
        return literal.withUTF8Buffer { text.utf8.elementsEqual($0) }
    }
}
