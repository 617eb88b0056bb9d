import Core
import Synchronization

/// Renders an error thrown by a handler (or an early `HTTPError`) in an API's wire format. The request is
/// nil when the error happened before a request could be built (e.g. a malformed head).
public typealias ErrorRenderer = @Sendable (any Error, HTTPRequest?) -> HTTPResponse

/// Maps method + host + path to handlers through mounted route groups. Register everything before the
/// server starts; lookups read an immutable compiled table.
public final class Router: Sendable {
    struct GroupSpec: Sendable {
        var prefix: String
        var host: String?
        var limits: Limits?
        var cors: CORSPolicy?
        var errorRenderer: ErrorRenderer?
        var middleware: [Middleware] = []
        var decodesPath = true
        var logsQuery = true
        var parsesQuery = true
        var routes: [RouteSpec] = []
    }

    struct RouteSpec: Sendable {
        var method: HTTPMethod
        var pattern: String
        var maxBodyBytes: Int?
        var handler: Handler
        var runsOnIOThread = false
        var attempt: IOThreadAttempt?
        var bodyLimit: BodyLimitRule?
    }

    private struct State {
        var groups: [GroupSpec] = []
        var compiled: RouteTable?
    }

    private let state = Locked(State())
    /// Counts registrations, so an event loop can keep the compiled table and ask for it again only after
    /// a change, instead of taking the lock on every request (with two I/O threads, the lock's cache line
    /// then moved between the cores on every request).
    private let registrations = Atomic<UInt64>(0)

    /// The number of registrations so far; a table obtained after reading it reflects at least these.
    var version: UInt64 { registrations.load(ordering: .acquiring) }

    /// Creates an empty router (every request answers 404).
    public init() {}

    /// Mounts a group at `prefix` ("" = root). `host`: optional pattern like
    /// "api-{env}-{project}.backbeam.io" whose `{captures}` go to `request.hostParameters`; host groups are
    /// tried before the others. `limits` may only lower the server's limits. `cors` answers preflights and
    /// decorates responses. `errorRenderer` renders thrown errors and early errors for targets under the
    /// prefix (plain `{"error":"..."}` JSON when nil). `middleware` runs, in order, before every handler of
    /// the group (see `Middleware`). `decodesPath` false hands the group's handlers the path undecoded
    /// (`request.path` is `request.rawPath`): an API whose paths carry escaped bytes the server's decoder
    /// refuses (`%00`, invalid UTF-8) decodes segment by segment and answers in its own format (Couch:
    /// `illegal_docid`). `logsQuery: false` keeps the query string of the group's requests out of the access
    /// log (for APIs whose clients put credentials in it). `parsesQuery: false` leaves
    /// `request.queryParameters` empty for an API that reads `request.query` itself: the query string is still
    /// checked (an invalid one is refused with 400 as in every group), but no pairs are built.
    public func group(_ prefix: String, host: String? = nil, limits: Limits? = nil, cors: CORSPolicy? = nil,
                      errorRenderer: ErrorRenderer? = nil, middleware: [Middleware] = [],
                      decodesPath: Bool = true, logsQuery: Bool = true, parsesQuery: Bool = true) -> RouteGroup {
        let normalized = Router.normalizePrefix(prefix)
        let index = state.withLock { state -> Int in
            state.groups.append(GroupSpec(prefix: normalized, host: host, limits: limits, cors: cors,
                                          errorRenderer: errorRenderer, middleware: middleware,
                                          decodesPath: decodesPath, logsQuery: logsQuery,
                                          parsesQuery: parsesQuery))
            state.compiled = nil
            return state.groups.count - 1
        }
        registrations.add(1, ordering: .releasing)
        return RouteGroup(router: self, index: index, prefix: normalized)
    }

    /// Adds a route to group `index`.
    func add(_ route: RouteSpec, toGroup index: Int) {
        state.withLock { state in
            guard state.groups.indices.contains(index) else { return }
            state.groups[index].routes.append(route)
            state.compiled = nil
        }
        registrations.add(1, ordering: .releasing)
    }

    /// The compiled table, rebuilt only after a registration changed it.
    func table() -> RouteTable {
        state.withLock { state in
            if let compiled = state.compiled { return compiled }
            let compiled = RouteTable(groups: state.groups)
            state.compiled = compiled
            return compiled
        }
    }

    /// Resolves a request against the current routes (see `RouteTable.resolve`).
    func resolve(method: HTTPMethod, host: String?, rawPath: String) -> RouteResolution {
        table().resolve(method: method, host: host, rawPath: rawPath)
    }

    /// "/parse/" -> "/parse", "parse" -> "/parse", "/" -> "".
    static func normalizePrefix(_ prefix: String) -> String {
        let trimmed = prefix.split(separator: "/", omittingEmptySubsequences: true)
        return trimmed.isEmpty ? "" : "/" + trimmed.joined(separator: "/")
    }
}

/// Routes mounted under one prefix (and optionally one host pattern), sharing limits, CORS, an error
/// renderer and middleware.
public final class RouteGroup: Sendable {
    private let router: Router
    private let index: Int
    /// The normalized prefix this group is mounted at ("" for the root).
    public let prefix: String

    init(router: Router, index: Int, prefix: String) {
        self.router = router
        self.index = index
        self.prefix = prefix
    }

    /// Registers `handler` for `method` on `pattern` (relative to the prefix). Segments are literals,
    /// `:name` parameters, or a trailing `*` matching the rest of the path. Literal beats `:param` beats `*`.
    /// `maxBodyBytes` overrides the group's body limit for this route.
    ///
    /// `runsOnIOThread`: the handler runs on the I/O thread that read the request instead of on a worker.
    /// Only for handlers that answer at once from memory (no storage, files, network, sleeps or contended
    /// locks) and take no request body: while one runs, that thread serves none of its other connections.
    /// Such a route skips the hand-off to the worker pool and stays answerable when every worker is busy
    /// or blocked, which is what a health check needs.
    public func on(_ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int? = nil, runsOnIOThread: Bool = false,
                   _ handler: @escaping Handler) {
        router.add(.init(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, handler: handler,
                         runsOnIOThread: runsOnIOThread),
                   toGroup: index)
    }

    /// Registers `handler` for each of `methods` on `pattern`.
    public func on(_ methods: [HTTPMethod], _ pattern: String, maxBodyBytes: Int? = nil, runsOnIOThread: Bool = false,
                   _ handler: @escaping Handler) {
        for method in methods {
            on(method, pattern, maxBodyBytes: maxBodyBytes, runsOnIOThread: runsOnIOThread, handler)
        }
    }

    /// Registers `handler` for each of `methods` on `pattern`, with `attempt` tried first on the I/O thread
    /// for requests without a body in a group without middleware (see `IOThreadAttempt`). When `attempt`
    /// answers nil, `handler` runs on a worker as for any route, with the request the attempt saw.
    /// `bodyLimit`, when given, lowers `maxBodyBytes` per request from its head (see `BodyLimitRule`).
    public func on(_ methods: [HTTPMethod], _ pattern: String, maxBodyBytes: Int? = nil,
                   bodyLimit: BodyLimitRule? = nil, attempt: @escaping IOThreadAttempt, _ handler: @escaping Handler) {
        for method in methods {
            router.add(.init(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, handler: handler,
                             attempt: attempt, bodyLimit: bodyLimit),
                       toGroup: index)
        }
    }

    /// Registers a GET route (HEAD falls back to it).
    public func get(_ pattern: String, maxBodyBytes: Int? = nil, _ handler: @escaping Handler) {
        on(.get, pattern, maxBodyBytes: maxBodyBytes, handler)
    }

    /// Registers a POST route.
    public func post(_ pattern: String, maxBodyBytes: Int? = nil, _ handler: @escaping Handler) {
        on(.post, pattern, maxBodyBytes: maxBodyBytes, handler)
    }

    /// Registers a PUT route.
    public func put(_ pattern: String, maxBodyBytes: Int? = nil, _ handler: @escaping Handler) {
        on(.put, pattern, maxBodyBytes: maxBodyBytes, handler)
    }

    /// Registers a DELETE route.
    public func delete(_ pattern: String, maxBodyBytes: Int? = nil, _ handler: @escaping Handler) {
        on(.delete, pattern, maxBodyBytes: maxBodyBytes, handler)
    }

    /// Registers a PATCH route.
    public func patch(_ pattern: String, maxBodyBytes: Int? = nil, _ handler: @escaping Handler) {
        on(.patch, pattern, maxBodyBytes: maxBodyBytes, handler)
    }
}
