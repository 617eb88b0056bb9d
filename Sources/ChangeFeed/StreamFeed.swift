import Core
import HTTP
import Storage

/// What the evaluator of a stream sends one waiter.
public struct FeedChunk: Sendable {
    /// Bytes sent as one chunk (may be empty: nothing to send, only cursors to move).
    public var bytes: [UInt8]
    /// The cursors after these bytes (nil: unchanged); later events must pass them to wake the waiter.
    public var cursors: [FeedCursor]?
    /// The stream ends after these bytes (a limit reached, the watched thing deleted, a one-shot answer).
    public var isLast: Bool
    /// The evaluator has more to send already (it sends a long backlog in bounded pieces): the waiter is
    /// evaluated again at once instead of waiting for the next event.
    public var hasMore = false

    /// Sends `bytes` and keeps the stream open, watching from `cursors` on; `hasMore` asks for the next
    /// piece of a backlog at once.
    public static func more(_ bytes: [UInt8], cursors: [FeedCursor]?, hasMore: Bool = false) -> FeedChunk {
        FeedChunk(bytes: bytes, cursors: cursors, isLast: false, hasMore: hasMore)
    }

    /// Sends `bytes` and ends the stream.
    public static func last(_ bytes: [UInt8]) -> FeedChunk {
        FeedChunk(bytes: bytes, cursors: nil, isLast: true)
    }
}

/// How a stream waits: heartbeats while idle and a time-out, both driven by the event loop's timers.
public struct FeedStreamOptions: Sendable {
    /// Bytes written after `interval` of silence (`"\n"`, an SSE comment); nil for none.
    public var heartbeat: (interval: Duration, bytes: [UInt8])?
    /// The stream ends (with the closing chunk) after this long; nil for never.
    public var timeout: Duration?
    /// The time-out counts from the last chunk sent (heartbeats do not count) rather than from the start.
    public var timeoutSinceLastChunk: Bool

    /// Options of a stream.
    public init(heartbeat: (interval: Duration, bytes: [UInt8])? = nil, timeout: Duration? = nil,
                timeoutSinceLastChunk: Bool = true) {
        self.heartbeat = heartbeat
        self.timeout = timeout
        self.timeoutSinceLastChunk = timeoutSinceLastChunk
    }
}

/// The streaming shape of the change feed (Couch `feed=continuous`, `feed=eventsource`): a chunked response
/// that sends what the evaluator produces, first for the backlog and then on every change event that
/// passes the waiter's cursors, and holds no thread in between. It ends with the evaluator's last chunk, or
/// with the `closing` chunk when its time-out passes or the server shuts down, or when the client leaves
/// (released). Heartbeats are written by the event loop while it is idle.
public final class StreamFeed<Payload: Sendable>: Sendable {
    /// Decides for a batch of waiters what each sends now, by waiter id; the others keep waiting. Runs on a
    /// pool thread and may read storage; it reads each waiter's current `cursors`.
    public typealias Evaluator = @Sendable ([FeedWaiter<Payload>]) -> [Int: FeedChunk]
    /// The last chunk of a stream the server ends (time-out or shutdown), from the waiter's cursors
    /// (e.g. `{"last_seq":N}`); may be empty. Runs on a pool thread.
    public typealias Closing = @Sendable (FeedWaiter<Payload>, StreamEnd) -> [UInt8]

    private let core: FeedCore<Payload>
    private let evaluator: Evaluator
    private let closing: Closing

    /// A feed fed by `bus`. `label` names its evaluation queue; `maxPerKey` caps the open streams of one
    /// key; `onCountChange` receives the number of open streams after each change.
    public init(bus: ChangeBus, label: String, maxPerKey: Int, evaluator: @escaping Evaluator,
                closing: @escaping Closing, onCountChange: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.evaluator = evaluator
        self.closing = closing
        core = FeedCore(bus: bus, label: label, maxPerKey: maxPerKey, onCountChange: onCountChange) { core, batch in
            StreamFeed.evaluate(batch, core: core, evaluator: evaluator, closing: closing)
        }
    }

    /// Number of open streams.
    public var count: Int { core.count }

    /// Waits until the evaluations scheduled so far have run (tests).
    func waitForEvaluations() { core.waitForEvaluations() }

    /// Number of open streams of `key`.
    public func count(forKey key: String) -> Int { core.count(forKey: key) }

    /// Registers a stream watching `cursors` and returns the response the handler returns: `head`'s status
    /// and headers with a streamed body whose first chunks are the backlog. Nil when `key` already has
    /// `maxPerKey` streams (checked here, before any byte is sent, so the API can answer with its error).
    public func open(key: String, cursors: [FeedCursor], payload: Payload, head: HTTPResponse = HTTPResponse(),
                     options: FeedStreamOptions = FeedStreamOptions()) -> HTTPResponse? {
        let core = self.core
        // Registered now, so events between this and the first evaluation mark it dirty.
        guard let waiter = core.register(key: key, cursors: cursors, payload: payload, parked: nil) else { return nil }
        // The server drops a response whose client left before it started (or a HEAD's body) without
        // running its producer; the guard then releases the waiter.
        let guardian = UnstartedRelease { _ = waiter.finish(); core.remove(waiter) }
        let evaluator = self.evaluator, closing = self.closing
        var response = head
        response.body = .stream { writer in
            guardian.started()
            waiter.attach(writer)
            writer.onClose { _ = waiter.finish(); core.remove(waiter) }
            writer.onEnd { reason in
                if waiter.requestEnd(reason) { StreamFeed.close(waiter, reason, writer: writer, core: core, closing: closing) }
            }
            if let heartbeat = options.heartbeat { writer.heartbeat(every: heartbeat.interval, bytes: heartbeat.bytes) }
            if let timeout = options.timeout { writer.endAfter(timeout, sinceLastWrite: options.timeoutSinceLastChunk) }
            StreamFeed.evaluate([waiter], core: core, evaluator: evaluator, closing: closing)
        }
        return response
    }

    /// Evaluates waiters and writes what they get; re-runs those woken again meanwhile, ends those the
    /// server asked to end meanwhile.
    private static func evaluate(_ batch: [FeedWaiter<Payload>], core: FeedCore<Payload>, evaluator: Evaluator,
                                 closing: Closing) {
        var pending = batch
        while !pending.isEmpty {
            let chunks = evaluator(pending)
            var again: [FeedWaiter<Payload>] = []
            for waiter in pending {
                guard let writer = waiter.writer else { continue }
                if let chunk = chunks[waiter.id] {
                    if chunk.isLast {
                        if waiter.finish() {
                            core.remove(waiter)
                            writer.finish(with: chunk.bytes)
                        }
                        continue
                    }
                    if let moved = chunk.cursors { core.move(waiter, to: moved) }
                    // A write to a stream whose client left returns false; its close handler releases it.
                    // A backlog's next piece is read at once (still in the evaluating phase, so events
                    // meanwhile only mark it dirty), unless the server is shutting down. A time-out that
                    // passes meanwhile waits for the backlog's end: it bounds the wait for changes, as
                    // CouchDB's continuous feed does, and must not cut a backlog that is being sent (with
                    // `timeout=0` it would fire between any two pieces).
                    if writer.write(chunk.bytes), chunk.hasMore, waiter.requestedEnd != .shutdown {
                        again.append(waiter)
                        continue
                    }
                }
                switch waiter.settle() {
                case .again: again.append(waiter)
                case .end(let reason): close(waiter, reason, writer: writer, core: core, closing: closing)
                case .idle, .done: break
                }
            }
            pending = again
        }
    }

    /// Ends a stream the server ended (the waiter is done already): the closing chunk, then the end.
    private static func close(_ waiter: FeedWaiter<Payload>, _ reason: StreamEnd, writer: StreamWriter,
                              core: FeedCore<Payload>, closing: Closing) {
        core.remove(waiter)
        writer.finish(with: closing(waiter, reason))
    }
}

/// Runs `release` when dropped unless `started()` was called: the stream's producer closure holds it, so a
/// response the server never starts still releases its waiter.
final class UnstartedRelease: Sendable {
    private let state: Locked<(@Sendable () -> Void)?>

    init(_ release: @escaping @Sendable () -> Void) {
        state = Locked(release)
    }

    func started() {
        state.withLock { $0 = nil }
    }

    deinit {
        let release = state.withLock { value -> (@Sendable () -> Void)? in
            defer { value = nil }
            return value
        }
        release?()
    }
}
