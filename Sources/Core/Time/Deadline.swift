import Dispatch

/// A moment on the monotonic clock (`DispatchTime`'s uptime) after which a piece of work is abandoned: a
/// query's time budget, shared by the SQL statements it runs (`Database.withTimeLimit(until:)`) and the work
/// done in Swift between them (the regex engine's `RegexBudget`), so that one budget bounds both.
public struct Deadline: Sendable, Hashable, Comparable {
    /// Nanoseconds of `DispatchTime.now().uptimeNanoseconds` at which the deadline passes.
    public let uptimeNanoseconds: UInt64

    public init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }

    /// A deadline that never passes.
    public static let never = Deadline(uptimeNanoseconds: .max)

    /// The clock the deadlines are on.
    @inline(__always)
    public static func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// `seconds` from now; negative or NaN counts as 0, and more than a year as `never` (so the arithmetic
    /// cannot overflow whatever a configuration says).
    public static func after(seconds: Double) -> Deadline {
        if seconds >= 31_536_000 { return .never }
        let nanos = seconds > 0 ? UInt64(seconds * 1e9) : 0
        return Deadline(uptimeNanoseconds: nowNanoseconds() &+ nanos)
    }

    /// The earlier of the two.
    public func earlier(_ other: Deadline) -> Deadline { self < other ? self : other }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { Self.nowNanoseconds() >= uptimeNanoseconds }

    /// Seconds left (0 once passed; `Double.infinity` for `never`).
    public var remainingSeconds: Double {
        if self == .never { return .infinity }
        let now = Self.nowNanoseconds()
        return now >= uptimeNanoseconds ? 0 : Double(uptimeNanoseconds - now) / 1e9
    }

    public static func < (a: Deadline, b: Deadline) -> Bool { a.uptimeNanoseconds < b.uptimeNanoseconds }
}
