import Foundation

/// At most `permits` holders at once; the others queue in arrival order, each for at most its own
/// waiting limit. This is the image worker pool: a decode runs on its caller's thread once it holds a
/// permit, so no more images are decoded at once than there are permits, and a caller that would wait
/// too long gives up instead of piling up.
final class WorkerGate: @unchecked Sendable {
    // All state below is guarded by `condition`.
    private let condition = NSCondition()
    private var available: Int
    private var queue: [UInt64] = []
    private var nextTicket: UInt64 = 0

    /// A gate admitting `permits` (at least 1) holders at once.
    init(permits: Int) {
        available = max(1, permits)
    }

    /// Waits for a permit, first come first served, for at most `timeout`. True when a permit was taken
    /// (give it back with `release`); false when the wait ran out.
    func acquire(timeout: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.seconds(timeout))
        condition.lock()
        defer { condition.unlock() }
        let ticket = nextTicket
        nextTicket &+= 1
        queue.append(ticket)
        while !(available > 0 && queue.first == ticket) {
            if !condition.wait(until: deadline), !(available > 0 && queue.first == ticket) {
                queue.removeAll { $0 == ticket }
                // The next in line may be able to go now.
                condition.broadcast()
                return false
            }
        }
        queue.removeFirst()
        available -= 1
        // With permits left over, the next in line goes too.
        if available > 0 { condition.broadcast() }
        return true
    }

    /// Gives a permit back.
    func release() {
        condition.lock()
        available += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Callers waiting for a permit now.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return max(0, Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }
}
