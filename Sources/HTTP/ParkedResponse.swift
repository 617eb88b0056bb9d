import Core
import Synchronization

/// A reply that completes later from any thread. Holds no thread while waiting: the connection waits in the
/// event loop until `complete(_:)` is called, the deadline passes (the `onTimeout` response is sent), the
/// client disconnects or the server shuts down.
public final class ParkedResponse: Sendable {
    private struct State {
        var finished = false          // a response won, or the client went away
        var cancelFired = false
        var pending: HTTPResponse?    // completed before the server attached
        var sink: (any ResponseSink)?
        var token: StreamToken?
        var cancelHandlers: [@Sendable () -> Void] = []
        var finishHandlers: [@Sendable () -> Void] = []
    }

    /// How long the request may stay parked.
    public let timeout: Duration
    /// Whether a server shutdown waits for the real answer (within its grace period) instead of answering
    /// with `onTimeout()` at once. Such a reply also outlives the end of the client's input (a client that
    /// half-closed still reads its answer), where a long poll takes that end as the client's departure.
    public let awaitsCompletionOnShutdown: Bool
    private let onTimeout: @Sendable () -> HTTPResponse
    private let state = Locked(State())

    /// Creates a parked reply that answers with `onTimeout()` unless completed within `timeout`.
    /// `awaitsCompletionOnShutdown` is for work already under way whose outcome the client must learn, such
    /// as a queued durable write: a shutdown then lets it finish, like any in-flight request. Long polls
    /// leave it false, so a shutdown answers them at once.
    public init(timeout: Duration, awaitsCompletionOnShutdown: Bool = false,
                onTimeout: @escaping @Sendable () -> HTTPResponse) {
        self.timeout = timeout
        self.awaitsCompletionOnShutdown = awaitsCompletionOnShutdown
        self.onTimeout = onTimeout
    }

    /// Completes the request with `response`. The first call wins; later calls (and calls after the client
    /// left) are ignored. Safe from any thread.
    public func complete(_ response: HTTPResponse) {
        let (target, finished) = state.withLock { state -> ((any ResponseSink, StreamToken)?, [@Sendable () -> Void]) in
            if state.finished { return (nil, []) }
            state.finished = true
            state.cancelHandlers = []
            let finished = state.finishHandlers
            state.finishHandlers = []
            guard let sink = state.sink, let token = state.token else {
                state.pending = response
                return (nil, finished)
            }
            return ((sink, token), finished)
        }
        if let (sink, token) = target { sink.parkedCompleted(response, token: token) }
        for handler in finished { handler() }
    }

    /// Registers `body` to run once when the reply is finished: completed (by its work, its time-out or a
    /// shutdown) or abandoned by its client. Runs at once if that already happened. The server uses it to
    /// hold a parked write's share of the decoding budget until the write job, which keeps what the handler
    /// parsed, has run.
    func onFinish(_ body: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.finishHandlers.append(body)
            return false
        }
        if runNow { body() }
    }

    /// Registers `body` to run once if the client disconnects or the server shuts down before the request
    /// is completed (to release subscriptions). Runs at once if that already happened.
    public func onCancel(_ body: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.cancelFired { return true }
            if state.finished { return false }
            state.cancelHandlers.append(body)
            return false
        }
        if runNow { body() }
    }

    /// Whether a response won or the client went away.
    public var isCompleted: Bool { state.withLock { $0.finished } }

    /// Connects the reply to its connection; sends at once if it was completed already.
    func attach(sink: any ResponseSink, token: StreamToken) {
        let pending = state.withLock { state -> HTTPResponse? in
            state.sink = sink
            state.token = token
            let pending = state.pending
            state.pending = nil
            return pending
        }
        if let pending { sink.parkedCompleted(pending, token: token) }
    }

    /// The deadline passed: answer with the `onTimeout` response unless something else won.
    func fireTimeout() {
        guard !isCompleted else { return }
        complete(onTimeout())
    }

    /// The client is gone: nothing will be sent; run the cancel handlers.
    func clientGone() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.cancelFired = true
            let handlers = state.finished ? [] : state.cancelHandlers + state.finishHandlers
            state.finished = true
            state.cancelHandlers = []
            state.finishHandlers = []
            state.pending = nil
            return handlers
        }
        for handler in handlers { handler() }
    }

    /// The server is shutting down: run the cancel handlers, then answer with the `onTimeout` response;
    /// nothing when the reply awaits its completion (the connection closes after that answer).
    func serverShutdown() {
        if awaitsCompletionOnShutdown { return }
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            if state.finished { return [] }
            state.cancelFired = true
            let handlers = state.cancelHandlers
            state.cancelHandlers = []
            return handlers
        }
        for handler in handlers { handler() }
        complete(onTimeout())
    }
}

/// What a handler returns: a response now, or a parked reply completed later.
public enum Reply: Sendable {
    /// Send this response.
    case response(HTTPResponse)
    /// Keep the connection waiting until the parked reply completes.
    case parked(ParkedResponse)
}

/// A route handler. Runs on a worker thread (it may block on storage). Thrown errors are rendered by the
/// route group's error renderer.
public typealias Handler = @Sendable (HTTPRequest) throws -> Reply

/// A route's first try at a request on the I/O thread that read it, before any hand-off to a worker: it
/// answers the requests it can answer at once and returns nil for every other one, which then goes to the
/// route's `Handler` on a worker. Handing a request to a worker and waking one (two futex calls and two
/// context switches, and the response copied once more) costs more than a point read from storage.
///
/// While an attempt runs, its I/O thread serves none of its other connections, so an attempt must do a
/// small, bounded amount of work: no waiting on locks others hold for long, on a connection pool, on the
/// writer, on files or on the network; no password hashing; no reads whose size the request decides. It
/// must not change anything either, since a nil answer sends the same request to the handler. Errors are
/// the handler's to answer: an attempt that meets one returns nil.
public typealias IOThreadAttempt = @Sendable (HTTPRequest) -> HTTPResponse?

/// A route's body limit decided from the request head (method, raw path, headers, framing), for a route whose
/// limit depends on what the body is: Couch takes attachments of a gigabyte but decodes JSON bodies whole, so
/// it allows far less for those. Called on the I/O thread once the head is routed, before any body byte is
/// read; the smaller of its answer and the route's `maxBodyBytes` applies (a `Content-Length` above it is
/// refused with 413 at once). It must be cheap and must not block: no storage, no locks others hold long.
public typealias BodyLimitRule = @Sendable (RequestHead, _ rawPath: String) -> Int
