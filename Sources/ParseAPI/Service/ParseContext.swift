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
    var isBatchItem = false
    /// The mount the request came in through ("/parse" or an alias).
    var mount: String

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

    /// Runs `body` as one durable write job; records the idempotency key in the same transaction.
    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T) throws -> T {
        if let transaction { return try body(transaction) }
        let requestId = config.idempotencyEnabled ? self.requestId : nil
        let ttl = config.idempotencyTTL
        if let requestId {
            // Recorded once per request: later writes of the same request must not trip over it.
            self.requestId = nil
            return try app.store.write { tx in
                let now = ParseDate.nowMillis()
                do {
                    try tx.recordRequestId(requestId, expiresAt: now + ttl * 1000, nowMillis: now)
                } catch StoreConflict.requestId {
                    throw ParseError.duplicateRequest
                }
                return try body(tx)
            }
        }
        return try app.store.write(body)
    }

    /// The answer for a master-only route called without the master key.
    func requireMaster() throws {
        if !caller.readsAsMaster { throw ParseError.masterKeyRequired }
    }
}
