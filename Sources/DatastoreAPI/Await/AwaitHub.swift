import Dispatch
import HTTP
import Storage
import Synchronization

/// Registry of parked awaits, indexed by watched handle and by user (for list watchers). One ChangeBus
/// subscription feeds it; a notice schedules re-evaluation of the affected waiters on a pool queue, so the
/// writer thread that publishes never blocks and no waiter holds a thread.
final class AwaitHub: Sendable {
    /// Evaluates waiters: responses (by waiter id) for those where something holds; the rest keep waiting.
    typealias Evaluator = @Sendable ([AwaitWaiter]) -> [Int: HTTPResponse]

    /// Largest batch evaluated by one task; bigger wake-ups are split so both cores share the work.
    static let batchSize = 1024

    private struct Registry {
        var waiters: [Int: AwaitWaiter] = [:]
        var byHandle: [String: Set<Int>] = [:]
        var listWatchers: [Int64: Set<Int>] = [:]
        var perUser: [Int64: Int] = [:]
        var nextID = 1
    }

    private let registry = Mutex(Registry())
    private let queue = DispatchQueue(label: "quartet.datastore.await", attributes: .concurrent)
    private let maxPerUser: Int
    private let evaluator: Evaluator
    private let onCountChange: @Sendable (Int) -> Void
    private let subscription = Mutex<ChangeSubscription?>(nil)

    init(maxPerUser: Int, evaluator: @escaping Evaluator, onCountChange: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.maxPerUser = maxPerUser
        self.evaluator = evaluator
        self.onCountChange = onCountChange
    }

    /// Subscribes to datastore change notices on `bus`.
    func attach(to bus: ChangeBus) {
        let sub = bus.subscribe(ChangeNotice.topic) { [weak self] event in
            guard let self, let notice = ChangeNotice.decode(event) else { return }
            self.noticeReceived(notice)
        }
        subscription.withLock { $0 = sub }
    }

    /// Number of registered waiters.
    var count: Int { registry.withLock { $0.waiters.count } }

    /// Registers a new waiter; nil when the user already has `maxPerUser` waiters.
    func register(user: DatastoreUser, watch: AwaitWatch, parked: ParkedResponse) -> AwaitWaiter? {
        let result: (AwaitWaiter, Int)? = registry.withLock { reg in
            guard reg.perUser[user.uid, default: 0] < maxPerUser else { return nil }
            let waiter = AwaitWaiter(id: reg.nextID, user: user, watch: watch, parked: parked)
            reg.nextID += 1
            reg.waiters[waiter.id] = waiter
            reg.perUser[user.uid, default: 0] += 1
            for cursor in watch.cursors { reg.byHandle[cursor.handle, default: []].insert(waiter.id) }
            if watch.listToken != nil { reg.listWatchers[user.uid, default: []].insert(waiter.id) }
            return (waiter, reg.waiters.count)
        }
        guard let (waiter, total) = result else { return nil }
        onCountChange(total)
        return waiter
    }

    /// Forgets a waiter (answered, timed out or disconnected). Idempotent.
    func remove(_ waiter: AwaitWaiter) {
        let total: Int? = registry.withLock { reg in
            guard reg.waiters.removeValue(forKey: waiter.id) != nil else { return nil }
            let uid = waiter.user.uid
            if let n = reg.perUser[uid], n > 1 { reg.perUser[uid] = n - 1 } else { reg.perUser[uid] = nil }
            for cursor in waiter.watch.cursors {
                reg.byHandle[cursor.handle]?.remove(waiter.id)
                if reg.byHandle[cursor.handle]?.isEmpty == true { reg.byHandle[cursor.handle] = nil }
            }
            reg.listWatchers[uid]?.remove(waiter.id)
            if reg.listWatchers[uid]?.isEmpty == true { reg.listWatchers[uid] = nil }
            return reg.waiters.count
        }
        if let total { onCountChange(total) }
    }

    /// The handler's first evaluation: the answer when something holds now (the waiter is then removed),
    /// nil to park. A notice that arrived meanwhile makes it evaluate again.
    func evaluate(_ waiter: AwaitWaiter) -> HTTPResponse? {
        while true {
            if let response = evaluator([waiter])[waiter.id] {
                guard waiter.finish() else { return nil }
                remove(waiter)
                return response
            }
            if !waiter.evaluationFoundNothing() { return nil }
        }
    }

    /// Evaluates woken waiters and completes those with news; re-runs those that got another notice meanwhile.
    private func evaluateParked(_ batch: [AwaitWaiter]) {
        var pending = batch
        while !pending.isEmpty {
            let answers = evaluator(pending)
            var again: [AwaitWaiter] = []
            for waiter in pending {
                if let response = answers[waiter.id] {
                    guard waiter.finish() else { continue }
                    remove(waiter)
                    waiter.parked.complete(response)
                } else if waiter.evaluationFoundNothing() {
                    again.append(waiter)
                }
            }
            pending = again
        }
    }

    private func noticeReceived(_ notice: ChangeNotice) {
        let affected: [AwaitWaiter] = registry.withLock { reg in
            var ids = reg.byHandle[notice.handle] ?? []
            for uid in notice.uids { ids.formUnion(reg.listWatchers[uid] ?? []) }
            return ids.compactMap { reg.waiters[$0] }
        }
        let woken = affected.filter { $0.noticeArrived() }
        var start = 0
        while start < woken.count {
            let end = min(start + Self.batchSize, woken.count)
            let batch = Array(woken[start..<end])
            queue.async { [self] in evaluateParked(batch) }
            start = end
        }
    }
}
