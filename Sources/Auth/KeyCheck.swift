/// Constant-time comparison of secrets (API keys, master keys), so response timing does not reveal how many
/// leading bytes of a guess were right.
public enum KeyCheck {
    /// True when `given` is present and equal to `expected`. Runs in time independent of where they differ.
    public static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var diff = UInt8(truncatingIfNeeded: a.count ^ b.count)
        // Compare against `b` over its full length whatever `a`'s length is.
        for i in 0..<b.count {
            let x = i < a.count ? a[i] : ~b[i]
            diff |= x ^ b[i]
        }
        return diff == 0 && a.count == b.count
    }
}
