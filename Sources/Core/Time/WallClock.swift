import Foundation

/// The wall clock as whole milliseconds since 1970 (UTC): the unit every stored timestamp uses.
public enum WallClock {
    /// Milliseconds since 1970 now, rounded down.
    public static func nowMillis() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
