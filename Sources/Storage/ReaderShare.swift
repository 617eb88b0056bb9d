import Dispatch
import Foundation

/// A cap on the read connections that slow ("heavy") reads hold at once: in all, and per client.
///
/// The reader pool hands connections out first come, first served, so as many slow queries as there are
/// readers (a pathological regex, an unindexed scan, an aggregate, each running up to its time budget) would
/// leave a GET by id or an indexed query waiting for one of them to end. A caller that knows a read is heavy
/// takes a place here before it keeps its connection for the long work; at most `limit` places exist (fewer
/// than the readers), and one client holds at most `perClientLimit` of them, so the other readers always
/// serve light reads and one client cannot take every heavy place either. Light reads never come here.
///
/// Places are counted, not tied to connections: a caller may take one while it holds a connection (when one
/// is free at once, `tryEnter`) or before it borrows one (`enter`, which waits).
public final class ReaderShare: @unchecked Sendable {
    /// Heavy reads that may run at once.
    public let limit: Int
    /// Heavy reads one client may run at once.
    public let perClientLimit: Int
    /// How long a heavy read waits for a place by default (callers bound it by their own deadline too).
    public let waitMilliseconds: Int

    /// Guards `active` and `byClient`; signalled when a place comes free.
    private let condition = NSCondition()
    private var active = 0
    /// Places held per client; a client leaves the table with its last place, so it holds at most `limit`
    /// entries however many clients there are.
    private var byClient: [String: Int] = [:]
    private let blockingHook: BlockingHook?

    /// `limit` and `perClientLimit` are raised to at least 1.
    public init(limit: Int, perClientLimit: Int, waitMilliseconds: Int) {
        self.limit = max(1, limit)
        self.perClientLimit = max(1, perClientLimit)
        self.waitMilliseconds = max(0, waitMilliseconds)
        blockingHook = nil
    }

    init(options: StorageOptions, blockingHook: BlockingHook) {
        limit = options.effectiveHeavyReaderCount
        perClientLimit = max(1, options.heavyReadersPerClient)
        waitMilliseconds = max(0, options.heavyReadWaitMilliseconds)
        self.blockingHook = blockingHook
    }

    /// Heavy reads running now.
    public var inUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return active
    }

    /// Takes a place for `client` if one is free now; never waits.
    public func tryEnter(client: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return takeIfFree(client)
    }

    /// Takes a place for `client`, waiting until one is free or the uptime clock (`DispatchTime`) reaches
    /// `deadline`; false when the deadline came first.
    public func enter(client: String, untilUptimeNanoseconds deadline: UInt64) -> Bool {
        condition.lock()
        if takeIfFree(client) {
            condition.unlock()
            return true
        }
        condition.unlock()
        // The wait may be long: let the server's worker pool put another thread on this one's queue.
        blockingHook?.willBlock()
        condition.lock()
        defer { condition.unlock() }
        while !takeIfFree(client) {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return false }
            let seconds = Double(deadline - now) / 1e9
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(seconds, 86_400)))
        }
        return true
    }

    /// Gives back a place `client` took.
    public func leave(client: String) {
        condition.lock()
        if let held = byClient[client] {
            byClient[client] = held > 1 ? held - 1 : nil
            active -= 1
        }
        // Waiters differ in their clients, so one freed place may suit any of them: wake all (they are few,
        // at most the requests waiting for a heavy place).
        condition.broadcast()
        condition.unlock()
    }

    /// Under the lock.
    private func takeIfFree(_ client: String) -> Bool {
        let held = byClient[client] ?? 0
        guard active < limit, held < perClientLimit else { return false }
        active += 1
        byClient[client] = held + 1
        return true
    }
}
