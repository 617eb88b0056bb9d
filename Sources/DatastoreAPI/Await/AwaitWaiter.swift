import HTTP
import Synchronization

/// One parked `await`: what it watches and the response it will complete. It holds no thread; it is
/// re-evaluated on a pool thread whenever a change notice names one of its handles or its user's list.
final class AwaitWaiter: Sendable {
    /// Unique within the hub.
    let id: Int
    /// The caller.
    let user: DatastoreUser
    /// The parsed watch request.
    let watch: AwaitWatch
    /// The parked HTTP response.
    let parked: ParkedResponse

    /// Evaluation bookkeeping: a notice that arrives during an evaluation makes it run again, so no commit
    /// between "read state" and "park" is ever missed.
    enum Phase: Sendable { case evaluating(dirty: Bool), idle, done }
    private let phase = Mutex<Phase>(.evaluating(dirty: false))

    init(id: Int, user: DatastoreUser, watch: AwaitWatch, parked: ParkedResponse) {
        self.id = id
        self.user = user
        self.watch = watch
        self.parked = parked
    }

    /// Called on a change notice: true when the caller must schedule an evaluation now.
    func noticeArrived() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .idle: phase = .evaluating(dirty: false); return true
            case .evaluating: phase = .evaluating(dirty: true); return false
            case .done: return false
            }
        }
    }

    /// Called after an evaluation found nothing: true when another notice arrived meanwhile (evaluate again).
    func evaluationFoundNothing() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .evaluating(let dirty):
                phase = dirty ? .evaluating(dirty: false) : .idle
                return dirty
            case .idle, .done: return false
            }
        }
    }

    /// Marks the waiter finished; true only for the first call.
    func finish() -> Bool {
        phase.withLock { phase in
            if case .done = phase { return false }
            phase = .done
            return true
        }
    }
}

/// What one `await` watches.
struct AwaitWatch: Sendable, Hashable {
    /// The submitted list token, when `list_datastores` was sent.
    let listToken: String?
    /// Handle → revision cursors, in the order received.
    let cursors: [(handle: String, rev: Int64)]

    static func == (a: AwaitWatch, b: AwaitWatch) -> Bool {
        a.listToken == b.listToken && a.cursors.elementsEqual(b.cursors) { $0.handle == $1.handle && $0.rev == $1.rev }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(listToken)
        for cursor in cursors {
            hasher.combine(cursor.handle)
            hasher.combine(cursor.rev)
        }
    }
}
