import Core
import HTTP
import Storage

/// The one-shot shape of the change feed (a long poll: Datastore `await`, Couch `feed=longpoll`): a request
/// is answered at once when the API's evaluator has an answer, else parked, holding no thread, until a change
/// event passes one of its cursors and the evaluator answers then, or its time-out passes (the time-out
/// answer), or the server shuts down (the time-out answer at once), or the client leaves (released).
public final class LongPollFeed<Payload: Sendable>: Sendable {
    /// Decides for a batch of waiters which are answered now: their responses by waiter id; the others keep
    /// waiting. Runs on a pool thread (or the handler's, for the first evaluation) and may read storage;
    /// one call serves all the waiters one event woke (up to `batchSize`), so it can share one read.
    public typealias Evaluator = @Sendable ([FeedWaiter<Payload>]) -> [Int: HTTPResponse]

    private let core: FeedCore<Payload>
    private let evaluator: Evaluator

    /// A feed fed by `bus`. `label` names its evaluation queue; `maxPerKey` caps the waiters of one key;
    /// `onCountChange` receives the number of waiters after each change (for a gauge).
    public init(bus: ChangeBus, label: String, maxPerKey: Int, evaluator: @escaping Evaluator,
                onCountChange: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.evaluator = evaluator
        core = FeedCore(bus: bus, label: label, maxPerKey: maxPerKey, onCountChange: onCountChange) { core, batch in
            LongPollFeed.evaluateParked(batch, core: core, evaluator: evaluator)
        }
    }

    /// Number of waiting requests.
    public var count: Int { core.count }

    /// Waits until the evaluations scheduled so far have run (tests).
    func waitForEvaluations() { core.waitForEvaluations() }

    /// Number of waiting requests of `key`.
    public func count(forKey key: String) -> Int { core.count(forKey: key) }

    /// The handler's reply for a long poll watching `cursors`: the evaluator's answer now, or the request
    /// parked for at most `timeout` (then, and on server shutdown, answered with `onTimeout()`). Nil when
    /// `key` already has `maxPerKey` waiters: the API answers with its own "too many" error.
    public func wait(key: String, cursors: [FeedCursor], payload: Payload, timeout: Duration,
                     onTimeout: @escaping @Sendable () -> HTTPResponse) -> Reply? {
        let slot = Locked<FeedWaiter<Payload>?>(nil)
        let core = self.core
        let parked = ParkedResponse(timeout: timeout) {
            if let waiter = slot.withLock({ $0 }) { _ = waiter.finish(); core.remove(waiter) }
            return onTimeout()
        }
        // Registered before the first evaluation, so that a commit in between is not missed.
        guard let waiter = core.register(key: key, cursors: cursors, payload: payload, parked: parked) else {
            return nil
        }
        slot.withLock { $0 = waiter }
        parked.onCancel { _ = waiter.finish(); core.remove(waiter) }
        if let response = firstEvaluation(waiter) { return .response(response) }
        return .parked(parked)
    }

    /// The handler's own evaluation: the answer when something holds now (the waiter is then forgotten),
    /// nil to park. An event that arrived meanwhile makes it evaluate again.
    private func firstEvaluation(_ waiter: FeedWaiter<Payload>) -> HTTPResponse? {
        while true {
            if let response = evaluator([waiter])[waiter.id] {
                guard waiter.finish() else { return nil }
                core.remove(waiter)
                return response
            }
            guard case .again = waiter.settle() else { return nil }
        }
    }

    /// Evaluates woken waiters and completes those with an answer; re-runs those woken again meanwhile.
    private static func evaluateParked(_ batch: [FeedWaiter<Payload>], core: FeedCore<Payload>, evaluator: Evaluator) {
        var pending = batch
        while !pending.isEmpty {
            let answers = evaluator(pending)
            var again: [FeedWaiter<Payload>] = []
            for waiter in pending {
                if let response = answers[waiter.id] {
                    guard waiter.finish() else { continue }
                    core.remove(waiter)
                    waiter.parked?.complete(response)
                } else if case .again = waiter.settle() {
                    again.append(waiter)
                }
            }
            pending = again
        }
    }
}
