import Dispatch
import Foundation
import Logging
import Synchronization

/// How a daemon's stop ended, and the exit status it means.
public enum StopOutcome: Sendable, Equatable {
    /// Every request finished (or, parked, was answered) within the grace; storage was checkpointed and
    /// closed.
    case clean
    /// The grace ran out: requests still running were cancelled (their clients got no answer), then storage
    /// was checkpointed and closed.
    case cancelled
    /// The grace ran out and cancelled work did not end within `ShutdownSequence.unwindTime` (a handler
    /// busy outside SQLite): storage was left open. Nothing acknowledged is lost: every acknowledged write
    /// was committed and synced, and SQLite rolls back the unfinished transaction at the next start.
    case abandoned

    /// 0 for a clean stop, 3 for a stop that had to cancel work (documented in docs/operations.md).
    public var exitStatus: Int32 { self == .clean ? 0 : 3 }
}

/// The order of a graceful stop, bounded in time: the HTTP server drains for up to `grace`, then storage
/// closes. Whatever still runs when the grace is over is cancelled: storage statements are interrupted
/// again and again (an interrupt reaches only the statement running at that moment) until storage has
/// closed, for at most `unwindTime`. After that the stop gives up on the remaining work, so the process can
/// exit at most `grace + unwindTime` after the stop began, whatever a handler is doing.
struct ShutdownSequence {
    /// Time cancelled work gets to unwind after the grace: statements end within a millisecond of an
    /// interrupt, and the final WAL checkpoint of a `walAutocheckpointPages`-sized WAL takes well under a
    /// second; only work outside SQLite ignores an interrupt, and waiting longer would not end it.
    static let unwindTime: Duration = .seconds(1)
    /// How often the interrupt is repeated while storage closes.
    static let interruptInterval: DispatchTimeInterval = .milliseconds(20)

    let grace: Duration
    var unwindTime: Duration = ShutdownSequence.unwindTime
    let logger: Logger

    /// Runs `drain` (true when every request finished within the grace) and then `close` on a thread of
    /// their own, calling `interrupt` once the grace has passed; returns when they are done, or when the
    /// unwind time after the grace has passed too.
    func run(drain: @escaping @Sendable () -> Bool, close: @escaping @Sendable () -> Void,
             interrupt: @escaping @Sendable () -> Void) -> StopOutcome {
        let start = DispatchTime.now()
        let drained = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            drained.store(drain(), ordering: .releasing)
            close()
            done.signal()
        }
        thread.name = "quartet.shutdown"
        thread.start()
        let graceEnd = start + Self.interval(grace)
        if done.wait(timeout: graceEnd) == .success {
            return drained.load(ordering: .acquiring) ? .clean : .cancelled
        }
        logger.warning("shutdown grace of \(Self.seconds(grace)) s passed; cancelling the requests still running")
        let unwindEnd = graceEnd + Self.interval(unwindTime)
        while DispatchTime.now() < unwindEnd {
            interrupt()
            let next = min(DispatchTime.now() + Self.interruptInterval, unwindEnd)
            if done.wait(timeout: next) == .success { return .cancelled }
        }
        logger.error("""
            cancelled work did not end within \(Self.seconds(unwindTime)) s after the shutdown grace; stopping \
            without closing storage (acknowledged writes are durable; SQLite rolls back the rest at the next start)
            """)
        return .abandoned
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        // Clamped to a billion seconds, far beyond any grace, so the product cannot overflow.
        let nanos = min(max(0, seconds), 1_000_000_000) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        return .nanoseconds(Int(clamping: nanos))
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds)" : String(format: "%.1f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
