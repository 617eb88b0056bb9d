import Core
import Dispatch

/// Drains an outbox (mails, push notifications) on its own serial queue after commits: `kick()` after a
/// transaction queued rows, and once at start for rows left queued by a stop. A kick while a drain runs
/// makes it run once more, so no row waits for the next request.
final class OutboxWorker: Sendable {
    private struct State {
        /// A drain is scheduled or running.
        var scheduled = false
        /// Rows were queued since the running drain read the outbox.
        var dirty = false
    }

    private let queue: DispatchQueue
    private let state = Locked(State())
    /// Handles up to a batch of queued rows; returns true when it handled a full batch (more may wait) and
    /// false when the outbox is empty or reading it failed (the next kick retries).
    private let drain: @Sendable () -> Bool

    init(label: String, drain: @escaping @Sendable () -> Bool) {
        self.queue = DispatchQueue(label: label)
        self.drain = drain
    }

    /// Schedules a drain in `seconds` (a retry that waits).
    func kick(afterSeconds seconds: Int) {
        queue.asyncAfter(deadline: .now() + .seconds(seconds)) { [self] in kick() }
    }

    /// Schedules a drain.
    func kick() {
        let start = state.withLock { s -> Bool in
            s.dirty = true
            if s.scheduled { return false }
            s.scheduled = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            while true {
                state.withLock { $0.dirty = false }
                let more = drain()
                let done = state.withLock { s -> Bool in
                    if more || s.dirty { return false }
                    s.scheduled = false
                    return true
                }
                if done { return }
            }
        }
    }
}
