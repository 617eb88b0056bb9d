import Logging
import Synchronization

/// What every event loop and connection of one server shares. Immutable apart from the atomic counters.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    let logger: Logger
    let observer: (any ServerObserver)?
    let workers: WorkerPool
    let tls: TLSContext?
    /// Open connections across all loops (for `maxConnections` and the observer).
    let openConnections = Atomic<Int>(0)
    /// Parked requests across all loops.
    let parkedRequests = Atomic<Int>(0)
    /// Set when shutdown starts, so workers stop promising keep-alive in responses they send themselves.
    let shuttingDown = Atomic<Bool>(false)
    let headerTimeoutNanos: UInt64
    let idleTimeoutNanos: UInt64
    let bodyDeadline: BodyDeadline
    /// Bytes of request bodies being decoded, server-wide.
    let decodingBudget: DecodingBudget
    let decodingWaitNanos: UInt64
    /// Complete requests waiting for room in the decoding budget, across all loops.
    let queuedForDecoding = Atomic<Int>(0)
    let serverHeaderLine: [UInt8]
    /// `configuration.accessLog`, and only when the logger writes `info` lines: the line's target is redacted
    /// before the logger sees it, and that walk over the target cost about 8,000 instructions per request
    /// on the I/O thread when the level dropped every line anyway. The level is set once at start-up.
    let accessLog: Bool
    let dates = DateHeaderCache()
    let requestIDs = RequestIDSource()

    init(configuration: ServerConfiguration, router: Router, logger: Logger, observer: (any ServerObserver)?,
         workers: WorkerPool, tls: TLSContext?) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.observer = observer
        self.workers = workers
        self.tls = tls
        headerTimeoutNanos = Sys.nanos(configuration.headerReadTimeout)
        idleTimeoutNanos = Sys.nanos(configuration.idleTimeout)
        bodyDeadline = BodyDeadline(slackNanos: Sys.nanos(configuration.bodyReadTimeout),
                                    minBytesPerSecond: configuration.minBodyBytesPerSecond)
        accessLog = configuration.accessLog && logger.logLevel <= .info
        decodingBudget = configuration.decodingBudget
        decodingWaitNanos = Sys.nanos(configuration.decodingWait)
        // The header value comes from configuration, not from a request; CR/LF are still stripped so a
        // bad setting cannot split the response.
        let name = configuration.serverHeader.filter { $0 != "\r" && $0 != "\n" }
        serverHeaderLine = name.isEmpty ? [] : Array("Server: \(name)\r\n".utf8)
    }

    /// Tells the observer the current connection and parked counts.
    func reportConnections() {
        guard let observer else { return }
        observer.connectionsChanged(open: openConnections.load(ordering: .relaxed),
                                    parked: parkedRequests.load(ordering: .relaxed))
    }
}
