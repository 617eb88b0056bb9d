import Core
import HTTP

/// The processing order of spec §1.3: OPTIONS -> health and file downloads -> body -> `_method` ->
/// credentials -> rate limit -> routing -> handler. Every failure is rendered in Parse's format.
extension ParseApp {
    /// Routes under the mount whose writes are guarded by `X-Parse-Request-Id` (spec §3.7).
    static let idempotentRoots: Set<String> = ["classes", "users", "installations", "batch", "roles", "sessions"]

    /// Answers one request; a write that parked its request (ParseContext.writeParked) answers later.
    func reply(to req: HTTPRequest, mount: String) -> Reply {
        handle(req, mount: mount, parking: true)
    }

    /// Answers one request at once: writes wait for their commit on the calling thread.
    func handle(_ req: HTTPRequest, mount: String) -> HTTPResponse {
        switch handle(req, mount: mount, parking: false) {
        case .response(let response): return response
        case .parked: return writer.error(.internalError, origin: req.headers["Origin"])
        }
    }

    private func handle(_ req: HTTPRequest, mount: String, parking: Bool) -> Reply {
        let origin = req.headers["Origin"]
        do {
            guard let segments = Self.segments(rawPath: req.rawPath, mount: mount) else { throw ParseError.unknownRoute }
            if req.method == .options {
                var headers = HTTPHeaders()
                writer.cors(&headers, origin: origin)
                return .response(HTTPResponse(status: .ok, headers: headers, body: .empty))
            }
            if segments.first == "health" {
                let state = health.withLock { $0?() } ?? .ok
                return .response(writer.reply(HealthRoutes.health(req, state: state), origin: origin))
            }
            if let early = try FileRoutes.beforeCredentials(self, req, segments) {
                return .response(writer.reply(early, origin: origin))
            }
            let ctx = ParseContext(app: self, http: req, method: req.method, path: segments, mount: mount)
            let isFileUpload = req.method == .post && segments.count == 2 && segments[0] == "files"
            var body = isFileUpload ? FileRoutes.envelope(self, req) : try readBody(req)
            if req.method == .post, let m = body["_method"]?.stringValue {
                ctx.method = HTTPMethod(rawValue: m)
                body["_method"] = nil
            }
            try resolveCredentials(ctx, body: &body, segments: segments)
            try limiter.check(path: "/" + segments.joined(separator: "/"), method: ctx.method.rawValue, caller: ctx.caller,
                              clientAddress: clientAddress(req))
            guard let (route, params) = routes.match(ctx.method, segments) else { throw ParseError.unknownRoute }
            ctx.pathParams = params
            if route.options.masterOnly { try ctx.requireMaster() }
            if ctx.caller.isReadOnlyMaster, let denial = route.options.readOnlyDenial { throw ParseError(119, denial) }
            let query = Self.queryParameters(req.queryParameters)
            if ctx.method == .get {
                var merged = body
                for (k, v) in query { merged[k] = v }
                ctx.params = merged
                ctx.body = body
            } else {
                ctx.params = query
                ctx.body = body
            }
            if (ctx.method == .post || ctx.method == .put), let root = segments.first, Self.idempotentRoots.contains(root),
               let rid = req.headers["X-Parse-Request-Id"], !rid.isEmpty, config.idempotencyEnabled {
                guard rid.utf8.count <= 256 else { throw ParseError(107, "X-Parse-Request-Id is too long.") }
                let now = ParseDate.nowMillis()
                if try store.read({ try $0.requestIdRecorded(rid, nowMillis: now) }) { throw ParseError.duplicateRequest }
                ctx.requestId = rid
            }
            // One place renders and counts every routed answer, now or once a parked write committed.
            let finisher = ReplyFinisher(app: self, route: route, origin: origin)
            if parking { ctx.finisher = finisher }
            do {
                let reply = try route.handler(ctx)
                if let parked = reply.parked { return .parked(parked) }
                return .response(finisher.render(.success(reply)))
            } catch {
                return .response(finisher.render(.failure(error)))
            }
        } catch {
            return .response(writer.error(mapError(error), origin: origin))
        }
    }

    /// Requests per Parse route pattern (never raw paths, which carry ids and class names) and status.
    func count(route: RouteTable.Entry, status: Int) {
        let key = RequestCounters.Key(method: route.method.rawValue, pattern: route.pattern, status: status)
        if let counter = requestCounters.counter(key) { counter.increment(); return }
        let counter = metrics.counter("quartet_parse_requests_total",
                                      help: "Parse API requests by route pattern, method and status.",
                                      labels: ["route": route.pattern, "method": route.method.rawValue, "status": String(status)])
        requestCounters.store(counter, for: key)
        counter.increment()
    }

    /// Maps any thrown error to the Parse answer; internal causes are logged, never sent.
    func mapError(_ error: any Error) -> ParseError {
        if let e = error as? ParseError { return e }
        if let e = error as? HTTPError { return ResponseWriter.parseError(for: e) }
        if let e = error as? StoreConflict {
            switch e {
            case .requestId: return .duplicateRequest
            case .username: return ParseError(202, "Account already exists for this username.")
            case .email: return ParseError(203, "Account already exists for this email address.")
            case .roleName: return ParseError(137, "A duplicate value for a field with unique values was provided")
            default: return ParseError(137, "A duplicate value for a field with unique values was provided")
            }
        }
        logger.error("parse request failed: \(String(describing: error))")
        return .internalError
    }

    /// Path segments after the mount: split on `/` before percent-decoding (an encoded `%2F` never
    /// separates), repeated slashes collapsed, trailing slash ignored. Nil if a segment does not decode.
    static func segments(rawPath: String, mount: String) -> [String]? {
        // On UTF-8 bytes throughout, in one pass over the path's buffer: '/' is one byte, and Character-wise
        // tests, cuts and splits (and later slices of the UTF-8 view) showed in profiles of every request.
        var path = rawPath, prefix = mount
        return path.withUTF8 { bytes -> [String]? in
            prefix.withUTF8 { mountBytes -> [String]? in
                guard bytes.count >= mountBytes.count else { return nil }
                for k in 0..<mountBytes.count where bytes[k] != mountBytes[k] { return nil }
                var i = mountBytes.count
                if i < bytes.count, bytes[i] != UInt8(ascii: "/") { return nil }
                var out: [String] = []
                out.reserveCapacity(4)
                while i < bytes.count {
                    while i < bytes.count, bytes[i] == UInt8(ascii: "/") { i += 1 }
                    let start = i
                    var escaped = false
                    while i < bytes.count, bytes[i] != UInt8(ascii: "/") {
                        // Nothing to decode without '%': the same text, refused with a NUL byte as
                        // decodePath refuses one (the path is valid UTF-8 already, being a String's bytes).
                        if bytes[i] == UInt8(ascii: "%") { escaped = true } else if bytes[i] == 0 { return nil }
                        i += 1
                    }
                    guard i > start else { break }
                    let segment = UnsafeBufferPointer(rebasing: bytes[start..<i])
                    if escaped {
                        guard let decoded = PercentDecoding.decodePath(Substring(String(decoding: segment, as: UTF8.self)))
                        else { return nil }
                        out.append(decoded)
                    } else {
                        out.append(String(decoding: segment, as: UTF8.self))
                    }
                }
                return out
            }
        }
    }

    /// The body as a JSON object (spec §2.2): empty -> `{}`, malformed or not an object -> 107.
    func readBody(_ req: HTTPRequest) throws -> JSONObject {
        let bytes: [UInt8]
        do {
            bytes = try req.body.readAll(limit: config.maxUploadSize)
        } catch {
            throw ParseError.entityTooLarge
        }
        if bytes.isEmpty { return JSONObject() }
        let json: JSON
        do {
            json = try StoredJSON.parseRequestBody(bytes, maxBytes: config.maxUploadSize)
        } catch .tooManyValues, .stringTooLong {
            // Too big in parsed form though not in bytes: refused as Parse Server refuses a body over its size.
            throw ParseError.entityTooLarge
        } catch {
            throw ParseError.invalidJSON
        }
        guard let obj = json.objectValue else { throw ParseError.invalidJSON }
        return obj
    }

    /// Query-string parameters (spec §2.3): each value JSON-parsed if it parses, else kept as text;
    /// repeated names collected into an array.
    static func queryParameters(_ form: FormParameters) -> JSONObject {
        var out = JSONObject()
        var repeated: Set<String> = []
        for (name, value) in form.pairs {
            let parsed: JSON = (try? JSONParser.parse(value)) ?? .string(value)
            if let existing = out[name] {
                if repeated.contains(name), case .array(var arr) = existing {
                    arr.append(parsed)
                    out[name] = .array(arr)
                } else {
                    out[name] = .array([existing, parsed])
                    repeated.insert(name)
                }
            } else {
                out[name] = parsed
            }
        }
        return out
    }
}
