/// Small deterministic generator (SplitMix64) for the Couch tests' generated inputs, so that failures reproduce.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<n` (0 when `n` is not positive).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    /// `count` decimal digits, the first not 0.
    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { i in Character(String(i == 0 ? 1 + next() % 9 : next() % 10)) })
    }
}
