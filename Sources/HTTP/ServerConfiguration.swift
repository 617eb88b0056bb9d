import Foundation

/// Everything the server needs to know before it starts.
public struct ServerConfiguration: Sendable {
    /// Address to listen on ("127.0.0.1", "0.0.0.0", "::").
    public var host = "127.0.0.1"
    /// Port to listen on; 0 picks an ephemeral port (see `HTTPServer.start()`).
    public var port = 8080
    /// Event-loop threads doing socket I/O; handlers never run on them.
    public var ioThreads = 1
    /// Worker threads running handlers (they may block on storage).
    public var workerThreads = 64
    /// How many workers a queue of handlers keeps awake while none of them announced a wait (see
    /// `WorkerPool`): twice the cores by default, so CPU-bound handlers are not spread over every worker.
    public var runningWorkers = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Server-wide limits; route groups may lower them.
    public var limits = Limits()
    /// Time a client has to send a complete request head once it started one (slowloris guard).
    public var headerReadTimeout: Duration = .seconds(10)
    /// Slack of a request body: the time it gets once the head has arrived, and the longest it may fall
    /// behind `minBodyBytesPerSecond` (see `BodyDeadline`). A body that runs out gets 408 and the connection
    /// closes.
    public var bodyReadTimeout: Duration = .seconds(30)
    /// The rate a request body must keep up after its first `bodyReadTimeout`; 0 makes `bodyReadTimeout` a
    /// deadline for the whole body.
    public var minBodyBytesPerSecond = 1024
    /// The budget of memory request bodies being decoded may take at once (see `DecodingBudget`): a
    /// complete body of 64 KiB or more is charged what decoding it may take at worst while its handler
    /// runs. Servers given the same instance share it. The default, 256 MiB, lets two maximum-size (20 MiB)
    /// Parse bodies or three dense 2 MB ones decode at once, and keeps 64 of them arriving together under
    /// 1 GB of resident memory.
    public var decodingBudget = DecodingBudget(capacity: 256 << 20)
    /// Runs a second after the last charged body of a burst is done (with the second heap trim; at most once
    /// a second), on a utility Dispatch queue: for releasing what the burst left resident outside the heap
    /// (the daemon releases the storage's memory maps and page caches). Nil: nothing.
    public var afterBurst: (@Sendable () -> Void)? = nil
    /// How long a complete request waits for `maxDecodingBytes` to have room before it is answered 503.
    public var decodingWait: Duration = .seconds(2)
    /// Time an idle keep-alive connection is kept open.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections beyond this are accepted and closed at once.
    public var maxConnections = 20_000
    /// How long `shutdown()` waits for in-flight requests before closing everything.
    public var shutdownGrace: Duration = .seconds(10)
    /// Whether one access-log line is written per request.
    public var accessLog = true
    /// TLS settings; nil serves plain HTTP only.
    public var tls: TLSConfiguration? = nil
    /// The `Server` header value; empty omits the header.
    public var serverHeader = "Quartet"
    /// Where request bodies above the in-memory threshold are spooled.
    public var tempDirectory: String = NSTemporaryDirectory()

    /// Creates a configuration with the defaults above.
    public init() {}
}

/// Certificate and key for HTTPS.
public struct TLSConfiguration: Sendable {
    /// PEM certificate chain file.
    public var certificatePath: String
    /// PEM private key file.
    public var privateKeyPath: String
    /// A second listener for TLS; nil serves TLS only, on the main port.
    public var port: Int?

    /// Creates TLS settings.
    public init(certificatePath: String, privateKeyPath: String, port: Int? = nil) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
        self.port = port
    }
}

/// Receives what the server measures; the application feeds its metrics registry from it. Called on I/O
/// threads, so implementations must be quick and thread-safe.
public protocol ServerObserver: Sendable {
    /// A response was sent (or the client left after the handler answered).
    func requestCompleted(group: String, method: String, status: Int, seconds: Double)
    /// The number of open connections or parked requests changed.
    func connectionsChanged(open: Int, parked: Int)
}
