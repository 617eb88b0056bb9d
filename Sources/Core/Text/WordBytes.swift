/// Byte tests on eight bytes at once, for the scans that run over every string of every request or
/// object (JSON strings, header values, stored objects): a word with no interesting byte is skipped in
/// one step instead of eight.
///
/// Each test returns a word with the high bit set in the bytes that match. Whether the result is zero is
/// exact; above the first matching byte a borrow may also flag bytes that do not match, so only the lowest
/// flag (`firstFlagged`) names a byte for certain.
public enum WordBytes {
    /// 0x01 in every byte.
    public static let ones: UInt64 = 0x0101_0101_0101_0101
    /// 0x80 in every byte.
    public static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `base + offset`, in memory order from the lowest byte (no alignment needed).
    @inlinable @inline(__always)
    public static func load(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    }

    /// Flags the bytes of `word` equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// Flags the bytes of `word` below `bound`, which must be at most 128.
    @inlinable @inline(__always)
    public static func below(_ word: UInt64, _ bound: UInt8) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word & highs
    }

    /// The offset within the word of the first byte in memory that `flags` marks, on little-endian
    /// machines (where the first byte is the lowest); nil elsewhere, so callers go on byte by byte.
    @inlinable @inline(__always)
    public static func firstFlagged(_ flags: UInt64) -> Int? {
        #if _endian(little)
        return flags.trailingZeroBitCount >> 3
        #else
        return nil
        #endif
    }
}
