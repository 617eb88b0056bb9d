import Core
import Dispatch
import HTTP
import Storage

/// The registry both feed shapes share: waiters by id, the topic index with each waiter's cursor, the
/// per-key counts, and one change-bus subscription per watched topic. An event is routed to the waiters
/// whose cursor it passes; those not already being evaluated are evaluated in batches on a concurrent
/// queue, so the thread that publishes (the storage's completion queue) never evaluates and no waiter
/// holds a thread.
final class FeedCore<Payload: Sendable>: Sendable {
    typealias Waiter = FeedWaiter<Payload>
    /// Evaluates a batch of woken waiters and delivers what they get (the shape's own loop).
    typealias Process = @Sendable (FeedCore<Payload>, [Waiter]) -> Void

    /// Largest batch evaluated by one task: bigger wake-ups are split so that every core shares the work,
    /// while one read transaction still serves many waiters.
    static var batchSize: Int { 1024 }

    private struct Topic {
        /// Waiter id → the sequence it has seen on this topic.
        var cursors: [Int: Int64] = [:]
        var subscription: ChangeSubscription?
    }

    private struct Registry {
        var waiters: [Int: Waiter] = [:]
        var topics: [String: Topic] = [:]
        var perKey: [String: Int] = [:]
        var nextID = 1
    }

    private let registry = Locked(Registry())
    private let bus: ChangeBus
    private let queue: DispatchQueue
    private let maxPerKey: Int
    private let onCountChange: @Sendable (Int) -> Void
    private let process: Process

    init(bus: ChangeBus, label: String, maxPerKey: Int, onCountChange: @escaping @Sendable (Int) -> Void,
         process: @escaping Process) {
        self.bus = bus
        queue = DispatchQueue(label: label, attributes: .concurrent)
        self.maxPerKey = maxPerKey
        self.onCountChange = onCountChange
        self.process = process
    }

    /// Number of registered waiters.
    var count: Int { registry.withLock { $0.waiters.count } }

    /// Number of registered waiters of `key`.
    func count(forKey key: String) -> Int { registry.withLock { $0.perKey[key] ?? 0 } }

    /// Registers a waiter, in the evaluating phase: events from now on mark it dirty until its first
    /// evaluation settles. Nil when `key` already has `maxPerKey` waiters.
    func register(key: String, cursors: [FeedCursor], payload: Payload, parked: ParkedResponse?) -> Waiter? {
        let result: (Waiter, Int)? = registry.withLock { reg in
            guard reg.perKey[key, default: 0] < maxPerKey else { return nil }
            let id = reg.nextID
            reg.nextID += 1
            var kept = cursors
            for (i, cursor) in cursors.enumerated() {
                // Mutated in place: a copy of the entry would copy its dictionary of cursors on every
                // registration.
                if reg.topics[cursor.topic] == nil {
                    reg.topics[cursor.topic] = Topic(subscription: subscribe(cursor.topic))
                }
                // A topic named twice is watched from the lower cursor.
                let lower = min(reg.topics[cursor.topic]?.cursors[id] ?? cursor.after, cursor.after)
                reg.topics[cursor.topic]?.cursors[id] = lower
                // The waiter keeps the registry's copy of the name, so that thousands of waiters of one
                // topic share one string instead of each keeping the one its request built.
                if let index = reg.topics.index(forKey: cursor.topic) { kept[i].topic = reg.topics.keys[index] }
            }
            let waiter = Waiter(id: id, key: key, payload: payload, cursors: kept, parked: parked)
            reg.waiters[id] = waiter
            reg.perKey[key, default: 0] += 1
            return (waiter, reg.waiters.count)
        }
        guard let (waiter, total) = result else { return nil }
        onCountChange(total)
        return waiter
    }

    /// Forgets a waiter (answered, ended, timed out or disconnected). Idempotent.
    func remove(_ waiter: Waiter) {
        let outcome: (total: Int, unused: [ChangeSubscription])? = registry.withLock { reg in
            guard reg.waiters.removeValue(forKey: waiter.id) != nil else { return nil }
            if let n = reg.perKey[waiter.key], n > 1 { reg.perKey[waiter.key] = n - 1 } else { reg.perKey[waiter.key] = nil }
            var unused: [ChangeSubscription] = []
            for cursor in waiter.cursors {
                reg.topics[cursor.topic]?.cursors[waiter.id] = nil
                if reg.topics[cursor.topic]?.cursors.isEmpty == true,
                   let subscription = reg.topics.removeValue(forKey: cursor.topic)?.subscription {
                    unused.append(subscription)
                }
            }
            return (reg.waiters.count, unused)
        }
        guard let outcome else { return }
        // Cancelled outside the registry lock; a waiter registering meanwhile subscribes anew.
        for subscription in outcome.unused { subscription.cancel() }
        onCountChange(outcome.total)
    }

    /// Moves a registered waiter's cursors on (a stream sent up to there): later events must pass them.
    func move(_ waiter: Waiter, to moved: [FeedCursor]) {
        registry.withLock { reg in
            guard reg.waiters[waiter.id] != nil else { return }
            for cursor in moved where reg.topics[cursor.topic]?.cursors[waiter.id] != nil {
                reg.topics[cursor.topic]?.cursors[waiter.id] = cursor.after
            }
        }
        waiter.move(moved)
    }

    /// Evaluates `waiters` (already in their evaluating phase) on the queue, in batches.
    func schedule(_ waiters: [Waiter]) {
        var start = 0
        while start < waiters.count {
            let end = min(start + Self.batchSize, waiters.count)
            let batch = Array(waiters[start..<end])
            queue.async { [self] in process(self, batch) }
            start = end
        }
    }

    /// Waits until every evaluation scheduled so far has run (for tests: evaluations are asynchronous).
    func waitForEvaluations() {
        queue.sync(flags: .barrier) {}
    }

    /// Called with the registry locked: the bus lock is taken inside, never the other way round (the bus
    /// calls handlers outside its lock).
    private func subscribe(_ topic: String) -> ChangeSubscription {
        bus.subscribe(topic) { [weak self] event in self?.eventArrived(event) }
    }

    private func eventArrived(_ event: ChangeEvent) {
        let passed: [Waiter] = registry.withLock { reg in
            guard let topic = reg.topics[event.topic] else { return [] }
            var passed: [Waiter] = []
            for (id, after) in topic.cursors where event.sequence > after {
                if let waiter = reg.waiters[id] { passed.append(waiter) }
            }
            return passed
        }
        schedule(passed.filter { $0.noticeArrived() })
    }
}
