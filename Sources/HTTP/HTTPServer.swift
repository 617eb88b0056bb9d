import Core
import Dispatch
import Glibc
import Logging
import Synchronization

/// The HTTP/1.1 server: listeners, a few epoll event-loop threads doing all socket I/O, and a worker pool
/// running handlers. Start it once; `shutdown()` stops it gracefully.
public final class HTTPServer: Sendable {
    private struct State {
        var started = false
        var stopped = false
        var listeners: [Listener] = []
        var loops: [EventLoop] = []
        var context: ServerContext?
    }

    private let configuration: ServerConfiguration
    private let router: Router
    private let logger: Logger
    private let observer: (any ServerObserver)?
    private let state = Locked(State())
    private let draining = Atomic<Bool>(false)
    /// Created with the server so that `blockingHook` can be handed out before `start()`.
    private let workers: WorkerPool

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: ServerConfiguration, router: Router, logger: Logger,
                observer: (any ServerObserver)? = nil) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.observer = observer
        workers = WorkerPool(threads: configuration.workerThreads, runningLimit: configuration.runningWorkers)
    }

    /// A function for code that runs inside handlers to call right before it blocks on something other
    /// than the CPU (waiting for a storage commit, for a free connection): a sleeping worker then takes
    /// over the queued requests at once instead of after the worker pool's stall time-out.
    public var blockingHook: @Sendable () -> Void {
        let workers = self.workers
        return { workers.willBlock() }
    }

    /// Binds the listeners and starts the I/O and worker threads. Returns the main port (the real one when
    /// the configuration asked for port 0).
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state throws(ServerStartError) in
            guard !state.started else { throw .alreadyStarted }
            // A peer that vanishes mid-write must produce EPIPE, not kill the process.
            signal(SIGPIPE, SIG_IGN)
            Sys.raiseFileLimit()
            HeapTrim.configure()
            var tlsContext: TLSContext?
            if let tls = configuration.tls {
                tlsContext = try TLSContext(certificatePath: tls.certificatePath, privateKeyPath: tls.privateKeyPath)
            }
            var listeners: [Listener] = []
            do throws(ServerStartError) {
                let tlsOnMain = configuration.tls != nil && configuration.tls?.port == nil
                listeners.append(try Listener.open(host: configuration.host, port: configuration.port,
                                                   isTLS: tlsOnMain))
                if let tlsPort = configuration.tls?.port {
                    listeners.append(try Listener.open(host: configuration.host, port: tlsPort, isTLS: true))
                }
            } catch {
                for listener in listeners { close(listener.fd) }
                throw error
            }
            let context = ServerContext(configuration: configuration, router: router, logger: logger,
                                        observer: observer, workers: workers, tls: tlsContext)
            var loops: [EventLoop] = []
            do throws(ServerStartError) {
                for index in 0..<max(1, configuration.ioThreads) {
                    loops.append(try EventLoop(context: context, index: index, listeners: listeners))
                }
            } catch {
                for listener in listeners { close(listener.fd) }
                throw error
            }
            workers.start(name: "http-worker")
            for loop in loops { loop.start() }
            state.started = true
            state.listeners = listeners
            state.loops = loops
            state.context = context
            return listeners.first?.port ?? configuration.port
        }
    }

    /// The ports actually bound: the main one first, then the TLS one when TLS has its own port.
    public var boundPorts: [Int] {
        state.withLock { $0.listeners.map(\.port) }
    }

    /// Whether the server stopped accepting connections.
    public var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// The number of open connections (for health and tests).
    public var openConnections: Int {
        state.withLock { $0.context?.openConnections.load(ordering: .relaxed) ?? 0 }
    }

    /// The number of parked requests.
    public var parkedRequests: Int {
        state.withLock { $0.context?.parkedRequests.load(ordering: .relaxed) ?? 0 }
    }

    /// Request-body bytes being decoded now (charged to the decoding budget).
    public var decodingBytesInUse: Int { configuration.decodingBudget.bytesInUse }

    /// Complete requests waiting for room in the decoding budget.
    public var queuedForDecoding: Int {
        state.withLock { $0.context?.queuedForDecoding.load(ordering: .relaxed) ?? 0 }
    }

    /// Stops accepting new connections; open ones keep being served.
    public func beginDraining() {
        guard !draining.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (loops, listeners) = state.withLock { ($0.loops, $0.listeners) }
        for loop in loops {
            let done = DispatchSemaphore(value: 0)
            loop.post(.stopAccepting(done))
            _ = done.wait(timeout: .now() + .seconds(2))
        }
        // Closed only after every loop took them out of its epoll set, so no loop accepts on a reused fd.
        for listener in listeners { close(listener.fd) }
    }

    /// Graceful stop: stop accepting, let in-flight requests finish, answer parked requests with their
    /// timeout response, close idle connections; returns when all connections are closed or the grace
    /// period has passed (then the rest are closed: their clients get no answer, and handlers still running
    /// for them finish unheard). Returns false when connections were cut off that way; true when every
    /// connection closed within the grace, and from calls that have nothing to stop (the server never
    /// started, or another call is stopping it).
    @discardableResult
    public func shutdown() -> Bool {
        let first = state.withLock { state -> Bool in
            if state.stopped || !state.started { return false }
            state.stopped = true
            return true
        }
        guard first else { return true }
        beginDraining()
        let (loops, context) = state.withLock { ($0.loops, $0.context) }
        context?.shuttingDown.store(true, ordering: .relaxed)
        for loop in loops { loop.post(.drain) }
        let deadline = Sys.monotonicNanos() &+ Sys.nanos(configuration.shutdownGrace)
        while let context, context.openConnections.load(ordering: .relaxed) > 0, Sys.monotonicNanos() < deadline {
            usleep(5_000)
        }
        let drained = (context?.openConnections.load(ordering: .relaxed) ?? 0) == 0
        for loop in loops { loop.post(.stop) }
        for loop in loops { _ = loop.exited.wait(timeout: .now() + .seconds(2)) }
        context?.workers.stop()
        return drained
    }
}
