import Core

/// What a committed write job announced: a topic (table, database, datastore...), a sequence the
/// publisher chose (e.g. the new change sequence) and a free-form detail.
public struct ChangeEvent: Sendable, Hashable {
    /// Subscribers of this exact topic receive the event.
    public var topic: String
    /// Publisher-defined sequence (e.g. the sequence number the write produced).
    public var sequence: Int64
    /// Publisher-defined detail (e.g. an object id).
    public var detail: String

    /// An event for `topic`.
    public init(topic: String, sequence: Int64 = 0, detail: String = "") {
        self.topic = topic
        self.sequence = sequence
        self.detail = detail
    }
}

/// Topic-based fan-out of change events to in-process subscribers (parked requests, caches).
public final class ChangeBus: Sendable {
    private struct Subscriber {
        let id: UInt64
        let handler: @Sendable (ChangeEvent) -> Void
    }

    private struct State {
        var nextID: UInt64 = 1
        var topics: [String: [Subscriber]] = [:]
    }

    private let state = Locked(State())

    /// An empty bus.
    public init() {}

    /// Calls `handler` for every later event of `topic` until the subscription is cancelled or released.
    public func subscribe(_ topic: String, _ handler: @escaping @Sendable (ChangeEvent) -> Void) -> ChangeSubscription {
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID &+= 1
            state.topics[topic, default: []].append(Subscriber(id: id, handler: handler))
            return id
        }
        return ChangeSubscription { [weak self] in self?.remove(id: id, topic: topic) }
    }

    /// Delivers `events` in order. Handlers run on the caller's thread, outside the bus lock (so a
    /// handler may subscribe or cancel), and must not block.
    public func publish(_ events: [ChangeEvent]) {
        for event in events {
            let handlers = state.withLock { $0.topics[event.topic]?.map(\.handler) ?? [] }
            for handler in handlers { handler(event) }
        }
    }

    /// Number of live subscriptions to `topic`.
    public func subscriberCount(_ topic: String) -> Int {
        state.withLock { $0.topics[topic]?.count ?? 0 }
    }

    private func remove(id: UInt64, topic: String) {
        state.withLock { state in
            guard var list = state.topics[topic] else { return }
            list.removeAll { $0.id == id }
            state.topics[topic] = list.isEmpty ? nil : list
        }
    }
}

/// A live subscription; cancelling (or releasing it) stops delivery.
public final class ChangeSubscription: Sendable {
    private let canceller: Locked<(@Sendable () -> Void)?>

    init(_ canceller: @escaping @Sendable () -> Void) {
        self.canceller = Locked(canceller)
    }

    /// Stops delivery. Idempotent.
    public func cancel() {
        let action = canceller.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        action?()
    }

    deinit { cancel() }
}
