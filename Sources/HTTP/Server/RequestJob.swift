/// A routed, complete request handed to a worker. The worker builds the `HTTPRequest` (decoding path and
/// query), runs the handler and, for in-memory bodies, serializes the whole response, so the I/O thread
/// only moves bytes.
struct RequestJob: Sendable {
    let head: RequestHead
    let match: RouteMatch
    let body: RequestBody
    let remoteAddress: String
    let isTLS: Bool
    let requestID: String
    /// When the loop finished reading the head.
    let receivedAt: ContinuousClock.Instant

    /// What the worker produced.
    enum Outcome: Sendable {
        /// A complete response (head and body) serialized for a connection kept alive when `keepAlive`.
        /// `response` (CORS applied) lets the I/O thread re-serialize if it must close after all.
        case serialized([UInt8], status: Int, bodyBytes: Int, keepAlive: Bool, response: HTTPResponse)
        /// A response the I/O thread serializes itself (file and stream bodies, or errors that close).
        case response(HTTPResponse, corsApplied: Bool, closing: Bool)
        /// The handler parked the request.
        case parked(ParkedResponse)
        /// The worker already wrote a serialized keep-alive response straight to the socket; `leftover` is
        /// what did not fit into the socket buffer.
        case written(status: Int, bodyBytes: Int, leftover: [UInt8])
    }

    /// What a handler produced: a response still to be serialized, or an outcome that needs no more work.
    enum Produced {
        case response(HTTPResponse)
        case outcome(Outcome)
    }

    /// Runs on a worker thread.
    func run(context: ServerContext) -> Outcome {
        switch produce() {
        case .outcome(let outcome): return outcome
        case .response(let response): return encode(response, context: context)
        }
    }

    /// The request an I/O-thread attempt built and declined: the worker takes it as it is.
    var prepared: HTTPRequest?

    /// The request with the route's parameters, or the answer to an undecodable path or query (the request
    /// cannot be trusted, so the connection closes after it).
    private func build() -> Result<HTTPRequest, Undecodable> {
        if let prepared { return .success(prepared) }
        var request: HTTPRequest
        do throws(HTTPError) {
            request = try HTTPRequest(method: head.method, target: head.target, version: head.version,
                                      headers: head.headers, body: body, remoteAddress: remoteAddress, isTLS: isTLS,
                                      requestID: requestID, receivedAt: receivedAt,
                                      decodingPath: match.group.decodesPath, parsingQuery: match.group.parsesQuery)
        } catch {
            return .failure(Undecodable(outcome: .response(
                ErrorRendering.render(error, request: nil, renderer: match.group.errorRenderer),
                corsApplied: false, closing: true)))
        }
        request.mountPath = match.group.prefix
        request.routePattern = match.route.pattern
        request.pathParameters = match.pathParameters
        request.wildcard = match.wildcard
        request.hostParameters = match.hostParameters
        return .success(request)
    }

    /// `build()`'s failure: the outcome that answers it.
    struct Undecodable: Error {
        let outcome: Outcome
    }

    /// What the route's I/O-thread attempt made of the request.
    enum Attempted {
        /// Answered (or refused as undecodable): nothing is left for a worker.
        case produced(Produced)
        /// Declined: the request goes to a worker, built already.
        case declined(HTTPRequest)
    }

    /// Runs the route's `attempt` on the I/O thread (only for groups without middleware, which runs on the
    /// handler's thread); CORS is applied to what it answers.
    func attempt(_ attempt: IOThreadAttempt) -> Attempted {
        switch build() {
        case .failure(let undecodable):
            return .produced(.outcome(undecodable.outcome))
        case .success(let request):
            guard var response = attempt(request) else { return .declined(request) }
            if let cors = match.group.cors {
                cors.apply(to: &response.headers, origin: head.headers["Origin"])
            }
            return .produced(.response(response))
        }
    }

    /// Builds the request, runs the group's middleware and the handler, and applies the group's CORS policy.
    func produce() -> Produced {
        let renderer = match.group.errorRenderer
        var request: HTTPRequest
        switch build() {
        case .failure(let undecodable): return .outcome(undecodable.outcome)
        case .success(let built): request = built
        }
        var response: HTTPResponse
        do {
            if match.group.hasMiddleware, let answer = try Middleware.run(match.group.middleware, on: &request) {
                response = answer
            } else {
                switch try match.route.handler(request) {
                case .parked(let parked): return .outcome(.parked(parked))
                case .response(let produced): response = produced
                }
            }
        } catch {
            response = ErrorRendering.render(error, request: request, renderer: renderer)
        }
        if let cors = match.group.cors {
            cors.apply(to: &response.headers, origin: head.headers["Origin"])
        }
        return .response(response)
    }

    /// Serializes responses with in-memory bodies; leaves files and streams to the connection.
    private func encode(_ response: HTTPResponse, context: ServerContext) -> Outcome {
        var out: [UInt8] = []
        out.reserveCapacity(320 + (response.body.knownLength ?? 0))
        guard let written = encode(response, date: context.dates.line(), server: context.serverHeaderLine,
                                   into: &out) else {
            return .response(response, corsApplied: true, closing: false)
        }
        return .serialized(out, status: written.status, bodyBytes: written.bodyBytes, keepAlive: written.keepAlive,
                           response: response)
    }

    /// What `encode(_:date:server:into:)` appended.
    struct Encoded {
        let status: Int
        let bodyBytes: Int
        let keepAlive: Bool
    }

    /// Appends head and body of a response with an in-memory body to `out`, with the given `Date` and
    /// `Server` lines; nil (nothing appended) for file and stream bodies, which the connection sends itself.
    func encode(_ response: HTTPResponse, date: [UInt8], server: [UInt8], into out: inout [UInt8]) -> Encoded? {
        let bytes: [UInt8]
        switch response.body {
        case .empty: bytes = []
        case .bytes(let body): bytes = body
        case .file, .stream: return nil
        }
        let code = response.status.code
        let bodyless = head.method == .head || code < 200 || code == 204 || code == 304
        // A handler's `Connection: close` is honoured by the writer, which reads the headers anyway.
        let keepAlive = ResponseHeadWriter.write(into: &out, status: response.status, headers: response.headers,
                                                 date: date, server: server, requestID: requestID,
                                                 body: response.body, chunked: false,
                                                 omitLength: code < 200 || code == 204 || code == 304,
                                                 keepAlive: head.keepAlive, http10: head.version == .http1_0,
                                                 closingWhenAsked: true)
        if !bodyless { out.append(contentsOf: bytes) }
        return Encoded(status: code, bodyBytes: bytes.count, keepAlive: keepAlive)
    }
}
