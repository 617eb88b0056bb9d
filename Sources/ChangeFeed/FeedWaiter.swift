import Core
import HTTP

/// One parked request of a feed: what it watches, the API's own description of it (`payload`) and where its
/// answer goes. It holds no thread: the feed evaluates it on a pool thread whenever a change event passes
/// one of its cursors.
public final class FeedWaiter<Payload: Sendable>: Sendable {
    /// Unique within its feed.
    public let id: Int
    /// What the feed's per-key cap counts (a user, a client address).
    public let key: String
    /// The API's description of the request (parsed parameters, the caller).
    public let payload: Payload
    /// The long poll's parked reply (nil for a stream).
    let parked: ParkedResponse?

    /// Evaluation bookkeeping. An event that arrives while the waiter is being evaluated marks it dirty, so
    /// the evaluation runs again and no commit between "read state" and "park" is ever missed. A server
    /// request to end a stream during an evaluation waits for it (`pendingEnd`), so the stream's chunks
    /// never overtake each other.
    enum Phase: Sendable { case evaluating(dirty: Bool), idle, done }

    /// What an evaluation that did not finish the waiter leads to.
    enum Settled: Sendable { case again, idle, end(StreamEnd), done }

    private struct State {
        var phase: Phase = .evaluating(dirty: false)
        var cursors: [FeedCursor]
        var pendingEnd: StreamEnd?
        var writer: StreamWriter?
    }

    private let state: Locked<State>

    init(id: Int, key: String, payload: Payload, cursors: [FeedCursor], parked: ParkedResponse?) {
        self.id = id
        self.key = key
        self.payload = payload
        self.parked = parked
        state = Locked(State(cursors: cursors))
    }

    /// The cursors as they are now: as registered, moved on by a stream's chunks.
    public var cursors: [FeedCursor] { state.withLock { $0.cursors } }

    /// The stream's writer, once its response started.
    var writer: StreamWriter? { state.withLock { $0.writer } }

    func attach(_ writer: StreamWriter) {
        state.withLock { $0.writer = writer }
    }

    /// Moves the cursors of watched topics to `moved` (topics the waiter does not watch are ignored).
    func move(_ moved: [FeedCursor]) {
        state.withLock { state in
            for cursor in moved {
                for index in state.cursors.indices where state.cursors[index].topic == cursor.topic {
                    state.cursors[index].after = cursor.after
                }
            }
        }
    }

    /// Called on an event that passes a cursor: true when the caller must schedule an evaluation now.
    func noticeArrived() -> Bool {
        state.withLock { state in
            switch state.phase {
            case .idle: state.phase = .evaluating(dirty: false); return true
            case .evaluating: state.phase = .evaluating(dirty: true); return false
            case .done: return false
            }
        }
    }

    /// Called after an evaluation that did not finish the waiter: evaluate again when an event arrived
    /// meanwhile, end when the server asked to, else wait.
    func settle() -> Settled {
        state.withLock { state in
            switch state.phase {
            case .evaluating(let dirty):
                if let reason = state.pendingEnd {
                    state.phase = .done
                    return .end(reason)
                }
                state.phase = dirty ? .evaluating(dirty: false) : .idle
                return dirty ? .again : .idle
            case .idle: return .idle
            case .done: return .done
            }
        }
    }

    /// The server asks a stream to end: true when the caller must end it now (it was idle); during an
    /// evaluation the evaluating thread ends it once its chunk is written.
    func requestEnd(_ reason: StreamEnd) -> Bool {
        state.withLock { state in
            switch state.phase {
            case .idle:
                state.phase = .done
                return true
            case .evaluating:
                if state.pendingEnd == nil { state.pendingEnd = reason }
                return false
            case .done:
                return false
            }
        }
    }

    /// Whether the server asked the stream to end during the current evaluation.
    var endRequested: Bool { state.withLock { $0.pendingEnd != nil } }

    /// Why the server asked the stream to end during an evaluation (nil: it did not).
    var requestedEnd: StreamEnd? { state.withLock { $0.pendingEnd } }

    /// Marks the waiter finished; true only for the first call.
    func finish() -> Bool {
        state.withLock { state in
            if case .done = state.phase { return false }
            state.phase = .done
            return true
        }
    }
}
