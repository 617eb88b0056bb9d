import Core
import HTTP

/// The entry point of every Couch request: method override, CORS preflight, path parsing and dispatch
/// (§1.4), authentication (§2.7), the method check, authorization (§2.8, before existence), then the
/// resource's handler. Every answer, errors included, leaves through `CouchCall.finish` or `stamp`.
enum CouchHandler {
    /// The handler of a route group whose Couch paths start after `mount` ("" for the root listener and
    /// for the host-root `/_session`).
    static func handler(mount: String, context: CouchContext) -> Handler {
        { request in handle(request, mount: mount, context: context) }
    }

    /// The error renderer of such a group, for errors the HTTP layer raises before the handler runs (413,
    /// 414, 405 for a method no route takes, …).
    static func renderer(mount: String, context: CouchContext) -> ErrorRenderer {
        { error, request in
            var response = Self.response(for: error, request: request, mount: mount, context: context)
            if let request { stamp(&response, request: request, context: context) } else { CouchResponse.stamp(&response) }
            return response
        }
    }

    static func handle(_ request: HTTPRequest, mount: String, context: CouchContext) -> Reply {
        var credentials = Credentials.anonymous
        do {
            let method = effectiveMethod(request)
            if method == .options, context.cors.isEnabled {
                var response = context.cors.preflight(origin: request.headers["Origin"],
                                                      requestedHeaders: request.headers["Access-Control-Request-Headers"])
                CouchResponse.stamp(&response)
                return .response(response)
            }
            let segments = try PathSegments.split(relativePath(request.rawPath, mount: mount),
                                                  plusIsSpace: context.config.decodePlusToSpace)
            let route = try CouchRoute.resolve(segments)
            let (cookie, authorization) = credentialHeaders(request.headers)
            credentials = try context.authenticator.authenticate(cookie: cookie, authorization: authorization,
                                                                  clientAddress: request.remoteAddress)
            if case .document = route, method == .post {
                // CouchDB's HTML form upload (§3.3.6).
                throw CouchError.notImplemented("Form upload to a document (POST /{db}/{docid})")
            }
            guard route.allows(method) else {
                throw CouchFailure(.methodNotAllowed(route.allowedMethods), headers: [("Allow", route.allowedMethods)])
            }
            let permissions = try Authorization.check(route, method: method, credentials: credentials, context: context)
            // After authorization: nobody unauthorized makes the server inflate anything (§2.3).
            let (request, charge) = try GzipRequestBody.decoded(request, route: route, method: method,
                                                                limit: CouchBodyLimit.limit(route: route, headers: request.headers,
                                                                                            config: context.config),
                                                                budget: context.decodingBudget)
            defer { if charge > 0 { context.decodingBudget?.release(charge) } }
            let call = CouchCall(request: request, method: method, route: route, credentials: credentials,
                                 permissions: permissions, query: QueryParameters(form: request.queryParameters),
                                 context: context, mount: mount)
            return try CouchDispatcher.run(call)
        } catch {
            let call = CouchCall(request: request, method: request.method, route: .welcome, credentials: credentials,
                                 query: QueryParameters(form: request.queryParameters), context: context, mount: mount)
            return .response(call.finish(response(for: error, request: request, mount: mount, context: context)))
        }
    }

    /// `Cookie` and `Authorization` in one pass over the headers (two lookups cost twice the walk).
    static func credentialHeaders(_ headers: HTTPHeaders) -> (cookie: String?, authorization: String?) {
        var cookie: String?
        var authorization: String?
        for (name, value) in headers {
            switch name.utf8.count {
            case 6 where cookie == nil && HTTPHeaders.namesEqual(name, "Cookie"): cookie = value
            case 13 where authorization == nil && HTTPHeaders.namesEqual(name, "Authorization"): authorization = value
            default: continue
            }
        }
        return (cookie, authorization)
    }

    /// `X-HTTP-Method-Override` counts on POST only, and only for the methods CouchDB accepts there (§2.1).
    static func effectiveMethod(_ request: HTTPRequest) -> HTTPMethod {
        guard request.method == .post, let override = request.headers["X-HTTP-Method-Override"] else { return request.method }
        switch override {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "COPY": return HTTPMethod(rawValue: override)
        default: return request.method
        }
    }

    /// The raw path below `mount` (the group's prefix already matched it).
    static func relativePath(_ rawPath: String, mount: String) -> Substring {
        let utf8 = rawPath.utf8
        guard !mount.isEmpty, utf8.starts(with: mount.utf8) else { return Substring(rawPath) }
        return Substring(utf8.dropFirst(mount.utf8.count))
    }

    /// The Couch answer to an error: Couch errors as they are; the HTTP layer's errors in Couch's words
    /// (§2.6); anything else a 500 whose cause goes to the log only.
    static func response(for error: any Error, request: HTTPRequest?, mount: String, context: CouchContext) -> HTTPResponse {
        var response: HTTPResponse
        switch error {
        case let failure as CouchFailure:
            response = CouchResponse.error(failure.error, headers: failure.headers)
        case let couch as CouchError:
            if couch.status >= 500 { context.logger.error("couch request failed", metadata: ["error": "\(couch)"]) }
            response = CouchResponse.error(couch)
        case let http as HTTPError:
            response = Self.response(for: http, request: request, mount: mount, context: context)
        default:
            context.logger.error("couch request failed", metadata: ["error": "\(error)"])
            response = CouchResponse.error(.internalError)
        }
        if response.status.code == 401, context.config.wwwAuthenticate {
            response.headers.add("WWW-Authenticate", "Basic realm=\"quartet\"")
        }
        return response
    }

    private static func response(for error: HTTPError, request: HTTPRequest?, mount: String,
                                 context: CouchContext) -> HTTPResponse {
        switch error {
        case .payloadTooLarge: return CouchResponse.error(.tooLarge)
        case .uriTooLong: return CouchResponse.error(.tooLong)
        case .headerFieldsTooLarge: return CouchResponse.error(.badRequest("Request headers are too large"))
        case .badRequest(let reason): return CouchResponse.error(.badRequest(reason.isEmpty ? "Bad request" : reason))
        case .requestTimeout:
            return CouchResponse.error(CouchError(status: 408, error: "timeout", reason: "The request timed out."))
        case .unsupportedMediaType: return CouchResponse.error(.badContentType("Unsupported media type"))
        case .expectationFailed:
            return CouchResponse.error(CouchError(status: 417, error: "expectation_failed",
                                                  reason: "Only 100-continue is supported"))
        case .rangeNotSatisfiable:
            return CouchResponse.error(CouchError(status: 416, error: "requested_range_not_satisfiable",
                                                  reason: "Requested range not satisfiable"))
        case .serviceUnavailable:
            return CouchResponse.error(CouchError(status: 503, error: "service_unavailable",
                                                  reason: "The server is starting or stopping."))
        case .notFound:
            return CouchResponse.error(.missing)
        case .methodNotAllowed:
            // The router knows only the group's methods; the resource decides what `Allow` says.
            let allowed = request.flatMap { request in
                (try? PathSegments.split(relativePath(request.rawPath, mount: mount),
                                         plusIsSpace: context.config.decodePlusToSpace))
                    .flatMap { try? CouchRoute.resolve($0) }?.allowedMethods
            } ?? "GET,HEAD"
            return CouchResponse.error(.methodNotAllowed(allowed), headers: [("Allow", allowed)])
        }
    }

    /// Couch's headers and CORS on a response built outside `CouchCall.finish`.
    static func stamp(_ response: inout HTTPResponse, request: HTTPRequest, context: CouchContext) {
        CouchResponse.stamp(&response)
        if context.cors.isEnabled { context.cors.decorate(&response, origin: request.headers["Origin"]) }
    }
}
