import Core

/// How much matching work may still be done: a deadline, and optionally a number of steps.
///
/// The matcher spends one step per program instruction that may run at an input position (the Pike VM's
/// bound on its work there), so its cost is counted inside one long match, not only between values: a
/// pattern that needs seconds on a 1 MB value stops within about a millisecond of the deadline. The clock is
/// read only once every `clockInterval` steps. One budget is meant to be shared by every match of one
/// query (pass the same variable `inout`), so it bounds the query's total regex work.
public struct RegexBudget: Sendable {
    /// Steps between two readings of the clock: tens of microseconds of matching, so reading the clock
    /// costs nothing measurable and a deadline is noticed well within a millisecond.
    public static let clockInterval = 1 << 14

    /// When the work must stop.
    public let deadline: Deadline
    /// Steps left before the budget is spent whatever the clock says (`Int.max`: no step limit).
    public private(set) var stepsLeft: Int
    /// Steps left before the clock is read again.
    private var untilClock: Int

    /// A budget ending at `deadline`, and after `maxSteps` steps when given.
    public init(deadline: Deadline = .never, maxSteps: Int = .max) {
        self.deadline = deadline
        stepsLeft = max(0, maxSteps)
        untilClock = Self.clockInterval
    }

    /// No limit at all (what `RegexProgram.matches(_:)` uses).
    public static var unlimited: RegexBudget { RegexBudget() }

    /// Spends `steps` (non-negative); throws once the step limit is exhausted or, at a clock reading, the
    /// deadline has passed.
    @inline(__always)
    public mutating func spend(_ steps: Int) throws(RegexBudgetExceeded) {
        stepsLeft &-= steps
        untilClock &-= steps
        if untilClock <= 0 || stepsLeft < 0 { try checkpoint() }
    }

    /// Reads the clock now (callers do between values, where no step was spent for a while).
    public mutating func checkpoint() throws(RegexBudgetExceeded) {
        if stepsLeft < 0 { throw RegexBudgetExceeded() }
        untilClock = Self.clockInterval
        if deadline != .never, deadline.hasPassed { throw RegexBudgetExceeded() }
    }
}

/// A match was abandoned because its `RegexBudget` was spent: the deadline passed or the step limit was
/// reached. Whether the text matches is unknown.
public struct RegexBudgetExceeded: Error, Sendable, Equatable {
    public init() {}
}
