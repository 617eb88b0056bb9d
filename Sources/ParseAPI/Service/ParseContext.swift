import Core
import HTTP

/// One Parse request after credential resolution and routing. Lives on one worker thread.
final class ParseContext {
    let app: ParseApp
    let http: HTTPRequest
    var method: HTTPMethod
    var path: [String]
    var pathParams: [String: String] = [:]
    /// Query parameters (GET semantics, spec §2.3): JSON-parsed values; `_method` bodies merged in.
    var params: JSONObject = JSONObject()
    /// The write payload (POST/PUT body after envelope keys were removed).
    var body: JSONObject = JSONObject()
    var caller: Caller = .publicCaller
    var installationId: String?
    var sessionToken: String?
    var requestId: String?
    var contentType: String?
    var clientVersion: String?
    /// The surrounding transaction of a transactional batch.
    var transaction: (any ParseTransaction)?
    /// This batch item's create, parsed and computed before the batch's job (`BatchRoutes.prepareCreates`).
    var preparedCreate: PreparedBatchCreate?
    var isBatchItem = false
    /// The mount the request came in through ("/parse" or an alias).
    var mount: String
    /// Renders a parked write's answer; set for requests whose connection can wait (not for batch items).
    var finisher: ReplyFinisher?

    init(app: ParseApp, http: HTTPRequest, method: HTTPMethod, path: [String], mount: String) {
        self.app = app
        self.http = http
        self.method = method
        self.path = path
        self.mount = mount
    }

    var config: ParseConfig { app.config }

    func param(_ name: String) -> String { pathParams[name] ?? "" }

    /// `<serverURL>`: `publicServerURL`, else scheme + Host header + mount (spec §2.7).
    var serverURL: String {
        if let p = config.publicServerURL { return p }
        let host = http.headers["Host"] ?? "localhost"
        return (http.isTLS ? "https://" : "http://") + host + mount
    }

    /// Runs `body` on a read connection, or inside the batch transaction when there is one.
    func read<T>(_ body: (any ParseTransaction) throws -> T) throws -> T {
        if let transaction { return try body(transaction) }
        return try app.store.read(body)
    }

    /// `read` for a body of exactly one statement, which needs no transaction around it.
    func readStatement<T>(_ body: (any ParseTransaction) throws -> T) throws -> T {
        if let transaction { return try body(transaction) }
        return try app.store.readStatement(body)
    }

    /// Runs `body` as one durable write job; records the idempotency key in the same transaction.
    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T) throws -> T {
        if let transaction { return try body(transaction) }
        return try app.store.write(recordingRequestId(body))
    }

    /// Like `write`, but the worker thread does not wait for the group commit: the request is parked and
    /// answered with `reply(result)` from the storage completion queue once the job is durable. A worker
    /// blocked on a semaphore for every write cost a sleep and a wake-up per request, with up to one
    /// thread per concurrent writer. Batch items and calls without a parking connection run as `write`.
    func writeParked<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T,
                                  reply: @escaping @Sendable (T) -> ParseReply) throws -> ParseReply {
        guard let finisher, transaction == nil, !isBatchItem else { return reply(try write(body)) }
        // A shutdown waits for the commit: the queued job still commits, and a 503 would invite a duplicate.
        let parked = ParkedResponse(timeout: .seconds(ParseContext.parkedWriteTimeoutSeconds),
                                    awaitsCompletionOnShutdown: true) {
            finisher.render(.failure(ParseError(1, "Service unavailable.", status: 503)))
        }
        app.store.write(recordingRequestId(body)) { result in
            parked.complete(finisher.render(result.map(reply)))
        }
        return .later(parked)
    }

    /// Guards only against a writer that never answers (the client may retry the 503).
    static let parkedWriteTimeoutSeconds: Int64 = 120

    /// `body` preceded by recording this request's `X-Parse-Request-Id` in the same job, when there is one.
    private func recordingRequestId<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T)
        -> @Sendable (any ParseTransaction) throws -> T {
        guard config.idempotencyEnabled, let requestId else { return body }
        // Recorded once per request: later writes of the same request must not trip over it.
        self.requestId = nil
        let ttl = config.idempotencyTTL
        return { tx in
            let now = ParseDate.nowMillis()
            do {
                try tx.recordRequestId(requestId, expiresAt: now + ttl * 1000, nowMillis: now)
            } catch StoreConflict.requestId {
                throw ParseError.duplicateRequest
            }
            return try body(tx)
        }
    }

    /// The answer for a master-only route called without the master key.
    func requireMaster() throws {
        if !caller.readsAsMaster { throw ParseError.masterKeyRequired }
    }
}

/// Turns a routed request's outcome into its HTTP answer and counts it: at once in ParseApp.handle, or from
/// the storage completion queue for a parked write.
struct ReplyFinisher: Sendable {
    let app: ParseApp
    let route: RouteTable.Entry
    let origin: String?

    func render(_ result: Result<ParseReply, any Error>) -> HTTPResponse {
        switch result {
        case .success(let reply):
            app.count(route: route, status: reply.raw?.status.code ?? reply.status)
            return app.writer.reply(reply, origin: origin)
        case .failure(let error):
            let mapped = app.mapError(error)
            app.count(route: route, status: mapped.status)
            return app.writer.error(mapped, origin: origin)
        }
    }
}
