import Core
import Dispatch
import Foundation
import Glibc
import Synchronization

/// One I/O thread: an epoll set with the listeners and its connections, an inbox other threads post to
/// (woken through an eventfd), and the deadlines of its connections and parked requests.
final class EventLoop: @unchecked Sendable {
    /// Work handed to the loop by other threads.
    enum Message: Sendable {
        case reply(Connection, UInt64, RequestJob.Outcome)
        case parked(StreamToken, HTTPResponse)
        case chunk(StreamToken, [UInt8])
        /// The end of a stream, after its last chunk (empty: none).
        case streamEnd(StreamToken, [UInt8])
        case streamTimer(StreamToken, StreamTimer)
        case stopAccepting(DispatchSemaphore)
        case drain
        case stop
    }

    private struct Inbox {
        var messages: [Message] = []
        /// The loop is about to block in epoll_wait, so a post must write the eventfd.
        var sleeping = false
        /// The eventfd was written since the loop last woke; further posts need not write it again.
        var signalled = false
    }

    let context: ServerContext
    let index: Int
    let epfd: Int32
    private let wakeFd: Int32
    private let inbox = Locked(Inbox())
    /// Signalled when the loop thread returns.
    let exited = DispatchSemaphore(value: 0)

    // Everything below is touched only by the loop thread.
    var listeners: [Listener] = []
    var connectionsByFD: [Connection?] = []
    var connections: [UInt64: Connection] = [:]
    var nextConnectionID: UInt64
    var timers = TimerHeap()
    /// Jobs produced during the current pass, handed to the worker pool in one batch at its end.
    var pendingJobs: [WorkerPool.Job] = []
    /// Scratch space for reads; data is copied out before the next read.
    let readBuffer: UnsafeMutableRawBufferPointer
    var draining = false
    var stopping = false
    /// Complete requests waiting for room in the decoding budget, oldest first, with the request sequence
    /// each was queued for.
    var decodingQueue: [(connection: Connection, sequence: UInt64)] = []
    /// Requests handed to workers whose reply has not been handled yet.
    var requestsInFlight = 0
    /// The monotonic clock read once after each wait for events (loop thread only). Connection deadlines
    /// are set from it: they are checked by a sweep and are seconds long, so being early by one pass's
    /// work costs nothing, while reading the clock for each of them cost several reads per request.
    /// Latencies still read the clock itself.
    private(set) var now: UInt64 = Sys.monotonicNanos()
    /// The `Date` line and the `Server` line for responses serialized on this loop. The loop's own, so
    /// that writing them touches no memory the other cores write: with a shared copy, every response moved
    /// its reference count's cache line (and the shared cache's lock) between the cores.
    var dates = DateLineCache()
    let serverHeaderLine: [UInt8]
    /// The router's compiled table and the registration count it was fetched at.
    private var routes: (version: UInt64, table: RouteTable)?

    /// The router's current table, fetched again only after a registration (see `Router.version`).
    func routeTable() -> RouteTable {
        let version = context.router.version
        if let routes, routes.version == version { return routes.table }
        let table = context.router.table()
        routes = (version, table)
        return table
    }
    /// How long a sleeping loop with requests in flight waits at most, so replies posted without a wake-up
    /// (the client already has its answer) are logged and their connections re-armed promptly even when
    /// nothing else happens.
    private let lazyReplyMillis: Int32 = 2
    private var nextSweep: UInt64 = 0
    /// How often connection deadlines (header read, idle, lingering close) are checked.
    private let sweepInterval: UInt64 = 100_000_000

    init(context: ServerContext, index: Int, listeners: [Listener]) throws(ServerStartError) {
        self.context = context
        self.index = index
        // A copy with storage of its own (`Array(_:)` would share the context's buffer).
        serverHeaderLine = context.serverHeaderLine.map { $0 }
        // Connection ids carry the loop index in their top byte so ids are unique server-wide.
        nextConnectionID = UInt64(index) << 56
        epfd = Epoll.create()
        guard epfd >= 0 else { throw .system("epoll_create1", Sys.errorText()) }
        wakeFd = Epoll.eventFD()
        guard wakeFd >= 0 else { throw .system("eventfd", Sys.errorText()) }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        self.listeners = listeners
        Epoll.add(epfd, wakeFd, events: Epoll.in)
        for listener in listeners {
            // EPOLLEXCLUSIVE: with several loops, one wake-up per incoming connection, not one per loop.
            Epoll.add(epfd, listener.fd, events: Epoll.in | Epoll.exclusive)
        }
    }

    deinit {
        close(epfd)
        close(wakeFd)
        readBuffer.deallocate()
    }

    /// Starts the loop's thread.
    func start() {
        let thread = Thread { [self] in
            self.run()
            self.exited.signal()
        }
        thread.name = "http-io-\(index)"
        thread.start()
    }

    /// Queues a message for the loop thread; wakes it only when it is (about to be) asleep and nobody woke
    /// it yet, so a busy loop receives many messages for one eventfd write.
    func post(_ message: Message) {
        post(message, wakeUnless: { false })
    }

    /// Queues a message that may wait for the loop's next pass: the loop is woken only when `deferrable`
    /// says no. `deferrable` is evaluated under the inbox lock, after the message is queued, so a flag the
    /// loop sets before it checks its inbox and goes to sleep is always seen. A sleeping loop with requests
    /// in flight wakes within `lazyReplyMillis` regardless, which bounds how late such a reply is handled.
    func post(_ message: Message, wakeUnless deferrable: () -> Bool) {
        let signal = inbox.withLock { inbox -> Bool in
            inbox.messages.append(message)
            if inbox.sleeping && !inbox.signalled && !deferrable() {
                inbox.signalled = true
                return true
            }
            return false
        }
        if signal {
            var one: UInt64 = 1
            _ = write(wakeFd, &one, 8)
        }
    }

    private func run() {
        let capacity = 512
        let events = Epoll.allocateEvents(capacity: capacity)
        defer { events.deallocate() }
        var taken: [Message] = []
        // Point reads answered on this thread keep their read transaction until the pass ends (`IOPass`).
        IOPass.enterPasses()
        defer { IOPass.leavePasses() }
        while !stopping {
            let hasMessages = inbox.withLock { inbox -> Bool in
                if inbox.messages.isEmpty {
                    inbox.sleeping = true
                    return false
                }
                return true
            }
            let timeout = hasMessages ? 0 : pollTimeout()
            let count = Epoll.wait(epfd, events, capacity: Int32(capacity), timeout: timeout)
            now = Sys.monotonicNanos()
            inbox.withLock { inbox in
                inbox.sleeping = false
                inbox.signalled = false
                swap(&inbox.messages, &taken)
            }
            if count > 0 {
                for offset in 0..<Int(count) {
                    let event = Epoll.event(events, offset)
                    dispatch(fd: event.fd, events: event.events)
                }
            }
            for message in taken { handle(message) }
            taken.removeAll(keepingCapacity: true)
            submitPendingJobs()
            tick()
            // Requests admitted from the decoding queue by `tick` go to the workers now, not a pass later.
            submitPendingJobs()
            // Before the next wait: nothing kept for the pass (a read transaction) is held while asleep.
            IOPass.end()
        }
        closeEverything()
    }

    private func dispatch(fd: Int32, events: UInt32) {
        if fd == wakeFd {
            var value: UInt64 = 0
            _ = read(wakeFd, &value, 8)
            return
        }
        if let listener = listeners.first(where: { $0.fd == fd }) {
            acceptConnections(listener)
            return
        }
        guard fd >= 0, fd < connectionsByFD.count, let connection = connectionsByFD[Int(fd)] else { return }
        connection.handle(events: events)
    }

    /// Queues a job for the worker pool at the end of this pass.
    func submit(_ job: @escaping WorkerPool.Job) {
        pendingJobs.append(job)
    }

    private func submitPendingJobs() {
        guard !pendingJobs.isEmpty else { return }
        context.workers.submit(batch: pendingJobs)
        pendingJobs.removeAll(keepingCapacity: true)
    }

    /// Milliseconds until the next deadline, or -1 to sleep until woken.
    private func pollTimeout() -> Int32 {
        var next: UInt64? = timers.nextDeadline
        if !connections.isEmpty { next = min(next ?? .max, nextSweep) }
        // Jobs waiting for a worker: come back soon to `nudge` the pool in case its workers are blocked.
        if context.workers.hasBacklog { return 1 }
        var cap: Int32 = requestsInFlight > 0 ? lazyReplyMillis : 60_000
        if !decodingQueue.isEmpty { cap = min(cap, EventLoop.decodingRetryMillis) }
        guard let next else { return requestsInFlight > 0 || !decodingQueue.isEmpty ? cap : -1 }
        let now = Sys.monotonicNanos()
        if next <= now { return 0 }
        // Round up so the loop never wakes a hair early and spins.
        let millis = (next - now + 999_999) / 1_000_000
        return min(Int32(min(millis, 60_000)), cap)
    }

    /// Fires due parked-request and stream timers and, every `sweepInterval`, checks connection deadlines.
    private func tick() {
        let now = Sys.monotonicNanos()
        context.workers.nudge(now: now)
        if !decodingQueue.isEmpty { admitQueuedDecoding() }
        while let entry = timers.popDue(now: now) {
            guard let connection = connections[entry.token.connection] else { continue }
            switch entry.kind {
            case .park: connection.parkTimerFired(entry.token)
            case .heartbeat: connection.heartbeatDue(entry.token, now: now)
            case .streamDeadline: connection.streamDeadlineDue(entry.token, now: now)
            }
        }
        if now >= nextSweep {
            nextSweep = now + sweepInterval
            for connection in connections.values { connection.checkDeadline(now: now) }
        }
    }
}
