import Core
import Synchronization

/// Where late output goes: the event loop that owns the connection a parked response or stream belongs to.
protocol ResponseSink: Sendable {
    /// Queues one chunk of a streamed body for sending.
    func streamChunk(_ bytes: [UInt8], token: StreamToken)
    /// Queues the end of a streamed body.
    func streamFinished(token: StreamToken)
    /// Queues a last chunk and the end of a streamed body as one step, so nothing (a heartbeat) comes between.
    func streamFinished(token: StreamToken, lastChunk: [UInt8])
    /// Hands the event loop a heartbeat or deadline of a stream.
    func streamTimer(_ timer: StreamTimer, token: StreamToken)
    /// Hands the response of a parked request to the connection.
    func parkedCompleted(_ response: HTTPResponse, token: StreamToken)
}

extension ResponseSink {
    func streamFinished(token: StreamToken, lastChunk: [UInt8]) {
        if !lastChunk.isEmpty { streamChunk(lastChunk, token: token) }
        streamFinished(token: token)
    }

    func streamTimer(_ timer: StreamTimer, token: StreamToken) {}
}

/// Identifies the connection and the request a stream writer or parked response belongs to.
struct StreamToken: Sendable, Equatable {
    let connection: UInt64
    let sequence: UInt64
}

/// A timer the event loop keeps for a long-lived stream (a change feed).
enum StreamTimer: Sendable {
    /// Write `bytes` whenever nothing was written for `nanos`.
    case heartbeat(nanos: UInt64, bytes: [UInt8])
    /// End the stream `nanos` after the producer's last chunk (`sinceLastWrite`) or after now.
    case deadline(nanos: UInt64, sinceLastWrite: Bool)
}

/// Why the server ends a stream its producer has not finished.
public enum StreamEnd: Sendable, Equatable {
    /// The deadline set with `StreamWriter.endAfter(_:sinceLastWrite:)` passed.
    case timeout
    /// The server is shutting down.
    case shutdown
}

/// Writes a chunked response body from any thread. Chunks are sent in the order `write` was called.
///
/// A long-lived stream (a change feed) may also ask the event loop for heartbeats and a deadline, and
/// register how it ends when the server ends it (`onEnd`); all of that is driven by the loop's timers, so an
/// idle stream holds no thread.
public final class StreamWriter: Sendable {
    private struct State {
        var closed = false
        var handlers: [@Sendable () -> Void] = []
        var endHandler: (@Sendable (StreamEnd) -> Void)?
    }

    private let state = Locked(State())
    private let sink: (any ResponseSink)?
    let token: StreamToken

    init(sink: (any ResponseSink)?, token: StreamToken) {
        self.sink = sink
        self.token = token
    }

    /// Sends `bytes` as one chunk. Returns false once the client is gone or the stream was finished; an
    /// empty array is ignored (an empty chunk would end the body).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let open = state.withLock { !$0.closed }
        guard open else { return false }
        if !bytes.isEmpty { sink?.streamChunk(bytes, token: token) }
        return true
    }

    /// Ends the body. Later writes return false. Runs the `onClose` handlers.
    public func finish() {
        finish(with: [])
    }

    /// Sends `lastChunk` (when not empty) and ends the body in one step: no heartbeat can slip between
    /// them. Later writes return false. Runs the `onClose` handlers.
    public func finish(with lastChunk: [UInt8]) {
        guard let handlers = markClosed() else { return }
        sink?.streamFinished(token: token, lastChunk: lastChunk)
        for handler in handlers { handler() }
    }

    /// Registers `body` to run once when the stream ends: finished by the producer or the client gone.
    /// Runs at once if that already happened.
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.handlers.append(body)
            return false
        }
        if runNow { body() }
    }

    /// Whether the stream has ended.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Makes the event loop send `bytes` as a chunk whenever the stream has been silent for `interval`
    /// (a newline for a line feed, a comment for server-sent events), so that clients and proxies see an
    /// idle feed is alive. A heartbeat that cannot be written (client gone) closes the stream. Calling it
    /// again replaces interval and bytes.
    public func heartbeat(every interval: Duration, bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        // At least a millisecond, so a zero interval cannot make the loop spin.
        sink?.streamTimer(.heartbeat(nanos: max(Sys.nanos(interval), 1_000_000), bytes: bytes), token: token)
    }

    /// Ends the stream once `timeout` has passed after the last chunk the producer wrote (heartbeats do not
    /// count), or after now when `sinceLastWrite` is false: the `onEnd` handler then runs with `.timeout`,
    /// or, without one, the stream is finished. A stream with a deadline or a heartbeat is a feed: while all
    /// its output is sent it is exempt from the server's idle time-out (which still closes a client that
    /// stops reading). Calling it again replaces the deadline.
    public func endAfter(_ timeout: Duration, sinceLastWrite: Bool = true) {
        sink?.streamTimer(.deadline(nanos: Sys.nanos(timeout), sinceLastWrite: sinceLastWrite), token: token)
    }

    /// Registers how the producer ends the stream when the server ends it: the `endAfter` deadline passed
    /// or the server is shutting down. `body` runs on a worker thread, once per such event (both may
    /// happen), and should send the feed's closing chunk with `finish(with:)`. Without a handler the server finishes the stream itself.
    public func onEnd(_ body: @escaping @Sendable (StreamEnd) -> Void) {
        state.withLock { state in
            if !state.closed { state.endHandler = body }
        }
    }

    /// Whether an `onEnd` handler waits to end the stream.
    var endsItself: Bool { state.withLock { !$0.closed && $0.endHandler != nil } }

    /// Called on a worker when the server ends the stream: runs the `onEnd` handler once, or finishes.
    func serverEnds(_ reason: StreamEnd) {
        // The handler stays registered: a shutdown may follow a time-out whose closing chunk is still being
        // produced, and the handler (not the server) decides what that means.
        let outcome = state.withLock { state -> (@Sendable (StreamEnd) -> Void)?? in
            state.closed ? .none : .some(state.endHandler)
        }
        switch outcome {
        case .none: return
        case .some(.some(let handler)): handler(reason)
        case .some(.none): finish()
        }
    }

    /// Called by the server when the client disconnects or the server closes the connection.
    func clientGone() {
        guard let handlers = markClosed() else { return }
        for handler in handlers { handler() }
    }

    /// Marks the stream closed; returns the handlers to run, or nil when it was closed already.
    private func markClosed() -> [@Sendable () -> Void]? {
        state.withLock { state in
            if state.closed { return nil }
            state.closed = true
            state.endHandler = nil
            let handlers = state.handlers
            state.handlers = []
            return handlers
        }
    }
}
