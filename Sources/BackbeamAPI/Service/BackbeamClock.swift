import Foundation

/// The wall clock the API signs and stamps with, in milliseconds since the epoch.
public enum BackbeamClock {
    /// Now, in milliseconds.
    public static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
