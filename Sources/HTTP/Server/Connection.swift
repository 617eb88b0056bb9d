import Glibc
import Synchronization

/// One client connection. Confined to its event loop's thread: every method runs there, which is why the
/// class needs no locks (other threads reach it only through `EventLoop.post`).
final class Connection: @unchecked Sendable {
    enum Phase {
        /// Waiting for (the rest of) a request head.
        case readingHead
        /// Head routed; reading the body up to the parser's `.end`.
        case readingBody
        /// The request is complete and waits for room in the decoding budget (see `DecodingBudget`).
        case queued
        /// The handler runs on a worker.
        case handling
        /// The handler parked the request; waiting for completion, timeout or disconnect.
        case parked
        /// Sending a response (or a stream still being produced).
        case writing
        /// Response sent, write side shut; discarding input until the client closes (so unread request
        /// bytes do not turn our close into a reset that destroys the response).
        case lingering
        case closed
    }

    unowned let loop: EventLoop
    let fd: Int32
    let id: UInt64
    let remoteAddress: String
    let tls: TLSSession?
    var context: ServerContext { loop.context }

    // The parser and the input and output buffers are exempt from Swift's run-time exclusivity checks.
    // Every request modifies each of them several times while calling other methods (about 40 checks per
    // request, 10 % of a small request's instructions). The checks are not needed: the connection is
    // confined to its loop's thread, and no method changes one of these while an access to the same one is
    // open (the parser writes `events` while reading from `input`, never into `input` itself; writes read
    // from `out` and change it only after the system call returned).
    var phase: Phase = .readingHead
    @exclusivity(unchecked) var parser: HTTPRequestParser
    @exclusivity(unchecked) var events: [ParseEvent] = []
    /// Received bytes not yet consumed by the parser, from `inputStart` on.
    @exclusivity(unchecked) var input: [UInt8] = []
    var inputStart = 0
    /// Monotonic deadline of the current phase (header read, idle, body progress, lingering); 0 = none.
    var deadline: UInt64 = 0
    /// Nothing of the next request has arrived yet (idle keep-alive rather than a slow head).
    var awaitingFirstByte = true
    /// The client closed its side (read returned 0).
    var peerClosed = false
    /// The current readiness report included a hang-up (read to EOF rather than stopping early).
    var hangUpSeen = true
    /// Reading stopped because too much pipelined input is buffered; resumed after the response.
    var readPaused = false
    /// Inside `processInput`, so nested completions let the outer loop continue instead of recursing.
    var processing = false
    /// Numbers requests on this connection; replies and parked completions carry it to detect stale ones.
    var sequence: UInt64 = 0
    var current: RequestState?

    // Output, written in order: `out` from `outOffset`, then `outExtra` (large bodies), then `file`.
    @exclusivity(unchecked) var out: [UInt8] = []
    var outOffset = 0
    @exclusivity(unchecked) var outExtra: [[UInt8]] = []
    var outExtraOffset = 0
    var file: FileSend?
    var stream: StreamWriter?
    var streamChunked = false
    var streamEnded = true
    /// Heartbeat and deadline of a long-lived stream (nil for other responses).
    var streamTimers: StreamTimers?
    var keepAlive = true
    /// Guards the socket between the loop and a worker sending a response directly: 0 free, 1 a worker is
    /// sending, 2 closed. Closing waits for a send in progress, so a worker can never write to a reused fd.
    let sendGate = Atomic<UInt8>(0)
    /// Set by the loop while a worker handles the request when the loop has something more to do for this
    /// connection once the reply arrives (buffered pipelined input, a client that hung up). A worker that
    /// wrote its response itself then wakes the loop; otherwise its reply waits for the loop's next pass.
    let needsReplySoon = Atomic<Bool>(false)
    /// Request bytes were left unread (answered before the body): close by lingering, never abruptly.
    var inputUnread = false

    init(loop: EventLoop, fd: Int32, id: UInt64, remoteAddress: String, tls: TLSSession?) {
        self.loop = loop
        self.fd = fd
        self.id = id
        self.remoteAddress = remoteAddress
        self.tls = tls
        parser = HTTPRequestParser(limits: loop.context.configuration.limits)
        out.reserveCapacity(1024)
    }

    /// Called once the loop registered the connection.
    func started() {
        // A fresh connection must start a request within the header-read timeout.
        deadline = Sys.monotonicNanos() &+ context.headerTimeoutNanos
    }

    /// Handles readiness reported by epoll.
    func handle(events: UInt32) {
        if phase == .closed { return }
        let readable = Epoll.in | Epoll.rdhup | Epoll.hup | Epoll.err
        if events & readable != 0 || tls?.wantsWriteToRead == true {
            readAvailable(hangUp: events & (Epoll.rdhup | Epoll.hup | Epoll.err) != 0)
        }
        if phase != .closed && events & Epoll.out != 0 {
            flush()
        }
    }

    /// Enforces the current phase's deadline.
    func checkDeadline(now: UInt64) {
        guard deadline != 0, now >= deadline else { return }
        switch phase {
        case .readingBody:
            bodyTimedOut()
        case .queued:
            decodingWaitExpired()
        case .readingHead, .writing, .lingering:
            close()
        case .handling, .parked, .closed:
            deadline = 0
        }
    }

    /// The body fell behind the minimum rate (`BodyDeadline`): 408 in the API's error format, then close,
    /// since the rest of the body will not be read.
    private func bodyTimedOut() {
        let response = ErrorRendering.render(HTTPError.requestTimeout, request: current?.request,
                                             renderer: current?.group?.errorRenderer)
        startResponse(response, closing: true)
    }

    /// The request waited `decodingWait` without room in the decoding budget: 503 in the API's error
    /// format. The body was read whole, so the connection stays usable.
    func decodingWaitExpired() {
        guard phase == .queued else { return }
        context.queuedForDecoding.subtract(1, ordering: .relaxed)
        current?.decodingCharge = 0
        var response = ErrorRendering.render(HTTPError.serviceUnavailable, request: current?.request,
                                             renderer: current?.group?.errorRenderer)
        if !response.headers.contains("Retry-After") { response.headers.add("Retry-After", "1") }
        startResponse(response, closing: false)
    }

    /// Closes the socket and releases what the connection holds: parked requests and streams hear that
    /// the client is gone, spooled bodies are deleted (unless a handler still reads them).
    func close() {
        guard phase != .closed else { return }
        let previous = phase
        phase = .closed
        tls?.free()
        // A worker's send is one non-blocking system call, so this wait is brief.
        while !sendGate.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            sched_yield()
        }
        Glibc.close(fd)
        if previous == .parked, let parked = current?.parked {
            context.parkedRequests.subtract(1, ordering: .relaxed)
            context.workers.submit { parked.clientGone() }
        }
        if let stream, !streamEnded {
            streamEnded = true
            context.workers.submit { stream.clientGone() }
        }
        file?.close()
        file = nil
        if previous == .queued { context.queuedForDecoding.subtract(1, ordering: .relaxed) }
        if previous != .handling { current?.discardBody() }
        if let current, current.responseStarted != nil { logCompletion(current, aborted: true) }
        loop.removed(self)
    }
}

/// An open file being sent as a response body.
struct FileSend {
    let fd: Int32
    var offset: Int
    var remaining: Int

    func close() { Glibc.close(fd) }
}
