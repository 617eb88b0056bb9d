import Synchronization

/// Where late output goes: the event loop that owns the connection a parked response or stream belongs to.
protocol ResponseSink: Sendable {
    /// Queues one chunk of a streamed body for sending.
    func streamChunk(_ bytes: [UInt8], token: StreamToken)
    /// Queues the end of a streamed body.
    func streamFinished(token: StreamToken)
    /// Hands the response of a parked request to the connection.
    func parkedCompleted(_ response: HTTPResponse, token: StreamToken)
}

/// Identifies the connection and the request a stream writer or parked response belongs to.
struct StreamToken: Sendable, Equatable {
    let connection: UInt64
    let sequence: UInt64
}

/// Writes a chunked response body from any thread. Chunks are sent in the order `write` was called.
public final class StreamWriter: Sendable {
    private struct State {
        var closed = false
        var handlers: [@Sendable () -> Void] = []
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
        guard let handlers = markClosed() else { return }
        sink?.streamFinished(token: token)
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
            let handlers = state.handlers
            state.handlers = []
            return handlers
        }
    }
}
