import Core
import HTTP

/// `POST /batch` (spec §8): sub-requests run in order with the outer credentials; with
/// `transaction:true` all of them run in one writer job and the first failure rolls everything back.
enum BatchRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/batch") { c in try batch(c) }
    }

    static let allowedRoots: Set<String> = ["classes", "users", "roles", "installations", "sessions"]

    struct Item: Sendable {
        var method: HTTPMethod
        var segments: [String]
        var path: String
        var body: JSONObject
        var error: ParseError?
        /// A create computed before a transactional batch's job (`prepareCreates`).
        var prepared: PreparedBatchCreate?
    }

    /// A failing item of a transactional batch (aborts the writer job).
    struct Abort: Error { let error: ParseError }

    /// Empties `items`, returning what it held (for its caller to free).
    private static func consume(_ items: inout [Item]) -> [Item] {
        let taken = items
        items = []
        return taken
    }

    static func batch(_ c: ParseContext) throws -> ParseReply {
        guard let requests = c.body["requests"]?.arrayValue else { throw ParseError(107, "requests must be an array") }
        guard requests.count <= c.config.batchMaxRequests else {
            throw ParseError(107, "Too many requests in one batch: the maximum is \(c.config.batchMaxRequests).")
        }
        if requests.isEmpty { return .okJSON(.array([])) }
        let transactional = c.body["transaction"]?.boolValue == true
        let parsed = requests.map { parseItem($0, c) }
        let items = transactional ? prepareCreates(parsed, c) : parsed
        let app = c.app, http = c.http, caller = c.caller, installationId = c.installationId
        let token = c.sessionToken, mount = c.mount
        if transactional {
            // The job borrows the items from `held`, and this worker takes them back once the job has run:
            // freeing them (the whole parsed request, 17 MB of objects for a batch of 1,000 large creates)
            // then happens here, not on the writer, which would otherwise spend as long on it as on the
            // job's own checks, with every other write waiting.
            let held = Locked(items)
            defer { _ = held.withLock { held in consume(&held) } }
            do {
                let results = try c.write { tx -> [JSON] in
                    var out: [JSON] = []
                    let items = held.withLock { $0 }
                    for item in items {
                        switch run(item, app: app, http: http, caller: caller, installationId: installationId,
                                   token: token, mount: mount, tx: tx) {
                        case .success(let body): out.append(["success": body])
                        case .failure(let e): throw Abort(error: e)
                        }
                    }
                    return out
                }
                return .okJSON(.array(results))
            } catch let abort as Abort {
                let e = abort.error
                if e.plainBody { throw ParseError(119, e.message) }
                throw ParseError(e.code, e.message, status: e.status == 429 ? 429 : 400)
            }
        }
        // The idempotency record commits on its own before the sub-requests (spec §3.7).
        if c.requestId != nil { try c.write { _ in } }
        var out: [JSON] = []
        for item in items {
            switch run(item, app: app, http: http, caller: caller, installationId: installationId, token: token,
                       mount: mount, tx: nil) {
            case .success(let body): out.append(["success": body])
            case .failure(let e):
                out.append(["error": ["code": .number(JSONNumber(e.itemCode)), "error": .string(e.message)]])
            }
        }
        return .okJSON(.array(out))
    }

    static func parseItem(_ v: JSON, _ c: ParseContext) -> Item {
        let method = HTTPMethod(rawValue: (v["method"]?.stringValue ?? "").uppercased())
        let path = v["path"]?.stringValue ?? ""
        var item = Item(method: method, segments: [], path: path, body: JSONObject())
        guard let o = v.objectValue else {
            item.error = ParseError(107, "cannot route batch path \(path)")
            return item
        }
        if let b = o["body"] {
            guard let body = b.objectValue else {
                item.error = ParseError(107, "body must be an object")
                return item
            }
            item.body = body
        }
        var prefixes = [c.config.mountPath] + c.config.additionalMountPaths
        if let url = c.config.publicServerURL, let schemeEnd = url.range(of: "://") {
            let rest = url[schemeEnd.upperBound...]
            if let slash = rest.firstIndex(of: "/") { prefixes.append(String(rest[slash...])) }
        }
        prefixes.sort { $0.count > $1.count }
        guard !path.contains("?"), let prefix = prefixes.first(where: { path == $0 || path.hasPrefix($0 + "/") }),
              let segments = ParseApp.segments(rawPath: path, mount: prefix), let root = segments.first,
              allowedRoots.contains(root), segments.count <= 3 else {
            item.error = ParseError(107, "cannot route batch path \(path)")
            return item
        }
        item.segments = segments
        return item
    }

    /// A transactional batch runs every item inside its one write job, where all other writes wait; the
    /// creates of regular classes are parsed and computed here first (`PreparedWrites`), so the job only
    /// checks and stores them. An item that cannot be prepared (an error, a system class) runs as before.
    static func prepareCreates(_ items: [Item], _ c: ParseContext) -> [Item] {
        var schemas: [String: ClassSchema?] = [:]
        return items.map { item in
            guard item.error == nil, item.method == .post, item.segments.count == 2, item.segments[0] == "classes" else {
                return item
            }
            let cls = item.segments[1]
            guard FieldNames.isValidClassName(cls), !FieldNames.systemClasses.contains(cls),
                  let w = try? WriteRequest.create(item.body, className: cls, config: c.config, caller: c.caller) else {
                return item
            }
            let schema: ClassSchema?
            if let known = schemas[cls] {
                schema = known
            } else {
                do { schema = try c.read { try Schemas.load(cls, $0) } } catch { return item }
                schemas[cls] = .some(schema)
            }
            var prepared = item
            prepared.prepared = PreparedBatchCreate(className: cls, request: w, prepared: PreparedCreate(w, schema: schema, config: c.config))
            return prepared
        }
    }

    static func run(_ item: Item, app: ParseApp, http: HTTPRequest, caller: Caller, installationId: String?,
                    token: String?, mount: String, tx: (any ParseTransaction)?) -> Result<JSON, ParseError> {
        if let e = item.error { return .failure(e) }
        guard let (route, params) = app.routes.match(item.method, item.segments), route.options.batchable else {
            return .failure(ParseError(107, "cannot route \(item.method.rawValue) \(item.path)"))
        }
        let sub = ParseContext(app: app, http: http, method: item.method, path: item.segments, mount: mount)
        sub.caller = caller
        sub.installationId = installationId
        sub.sessionToken = token
        sub.transaction = tx
        sub.preparedCreate = item.prepared
        sub.isBatchItem = true
        sub.pathParams = params
        if item.method == .get { sub.params = item.body } else { sub.body = item.body }
        do {
            // Every sub-request counts against the rules of its own path (spec §3.8).
            try app.limiter.check(path: "/" + item.segments.joined(separator: "/"), method: item.method.rawValue,
                                  caller: caller, clientAddress: app.clientAddress(http))
            if route.options.masterOnly { try sub.requireMaster() }
            if caller.isReadOnlyMaster, let denial = route.options.readOnlyDenial { throw ParseError(119, denial) }
            return .success(try route.handler(sub).jsonBody)
        } catch {
            return .failure(app.mapError(error))
        }
    }
}
