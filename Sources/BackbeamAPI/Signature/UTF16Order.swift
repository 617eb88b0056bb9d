#if canImport(Glibc)
import Glibc
#endif

/// The ordering the Backbeam clients sort signature names and values by (§3.3 step 4).
///
/// NSString `compare:` (iOS), Java's `TreeMap` over `String` (Android) and JavaScript's `sort` all
/// compare UTF-16 code units. Swift's `String <` compares by Unicode canonical ordering instead, which
/// disagrees for canonically equivalent texts and for characters above U+FFFF, so it must not be used.
enum UTF16Order {
    /// True when `a` sorts before `b` by UTF-16 code units.
    ///
    /// UTF-8 byte order equals code-point order, and code-point order equals UTF-16 order except when a
    /// supplementary character (UTF-16 surrogates D800-DFFF) meets one in E000-FFFF. Those need a UTF-8
    /// lead byte 0xEE or above, so texts without such bytes (every ASCII name, key and nonce) are compared
    /// on their UTF-8 bytes with `memcmp`, which is what every signed request sorts by.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb -> Bool? in
                guard !hasHighBytes(pa), !hasHighBytes(pb) else { return nil }
                let common = min(pa.count, pb.count)
                if common > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return order < 0 }
                }
                return pa.count < pb.count
            } ?? nil
        } ?? nil
        if let fast { return fast }
        if !hasHighBytes(a) && !hasHighBytes(b) {
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        return a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    /// True when some UTF-8 byte is 0xEE or above (U+E000 and up).
    private static func hasHighBytes(_ s: String) -> Bool {
        s.utf8.contains { $0 >= 0xEE }
    }

    private static func hasHighBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b >= 0xEE { return true }
        return false
    }
}
