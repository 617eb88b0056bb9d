import Glibc

extension Connection {
    /// A request head arrived: build the request, route it, apply the route's body limit and decide on
    /// `100 Continue`.
    func beginRequest(_ head: RequestHead) {
        sequence &+= 1
        phase = .readingBody
        awaitingFirstByte = false
        let now = Sys.monotonicNanos()
        deadline = now &+ context.idleTimeoutNanos
        keepAlive = head.keepAlive
        let configuration = context.configuration
        let requestID = RequestIDGenerator.sanitize(head.headers["X-Request-Id"]) ?? loop.requestIDs.next()
        let request: HTTPRequest
        do throws(HTTPError) {
            request = try HTTPRequest(method: head.method, target: head.target, version: head.version,
                                      headers: head.headers, body: .empty, remoteAddress: remoteAddress,
                                      isTLS: tls != nil, requestID: requestID)
        } catch {
            current = nil
            earlyError(error)
            return
        }
        let table = context.router.table()
        let resolution = table.resolve(method: head.method, host: head.headers["Host"], rawPath: request.rawPath)
        let state = RequestState(head: head, request: request,
                                 body: BodyCollector(threshold: configuration.limits.inMemoryBodyThreshold,
                                                     tempDirectory: configuration.tempDirectory),
                                 startNanos: now)
        switch resolution {
        case .matched(let match):
            state.match = match
            state.group = match.group
            let limits = match.group.effectiveLimits(configuration.limits)
            state.body = BodyCollector(threshold: limits.inMemoryBodyThreshold,
                                       tempDirectory: configuration.tempDirectory)
            state.request.mountPath = match.group.prefix
            state.request.routePattern = match.route.pattern
            state.request.pathParameters = match.pathParameters
            state.request.wildcard = match.wildcard
            state.request.hostParameters = match.hostParameters
        case .preflight(let group, let methods):
            state.group = group
            if let cors = group.cors {
                state.immediate = cors.preflightResponse(for: request, methods: methods)
                state.corsDone = true
            }
        case .methodNotAllowed(let group, let allowed):
            state.group = group
            state.immediate = ErrorRendering.render(HTTPError.methodNotAllowed(allowed: allowed), request: request,
                                                    renderer: group.errorRenderer)
        case .notFound(let group):
            state.group = group
            state.immediate = ErrorRendering.render(HTTPError.notFound, request: request,
                                                    renderer: group?.errorRenderer)
        }
        if state.immediate == nil, let group = state.group, let error = Connection.groupLimitError(head, group) {
            // The parser applied the server-wide limits; a group may have lowered them.
            state.immediate = ErrorRendering.render(error, request: request, renderer: group.errorRenderer)
            state.match = nil
        }
        if head.headers.contains("Expect") && !head.expectsContinue && state.immediate == nil {
            state.immediate = ErrorRendering.render(HTTPError.expectationFailed, request: request,
                                                    renderer: state.group?.errorRenderer)
        }
        current = state
        let hasBody = head.framing != .none && head.framing != .contentLength(0)
        if let immediate = state.immediate {
            // Without a handler the body is never read: answer now and close if one follows.
            if hasBody { respondNow(immediate, closing: true) }
            return
        }
        if let match = state.match {
            let limit = match.route.maxBodyBytes ?? match.group.effectiveLimits(configuration.limits).maxBodyBytes
            do throws(HTTPError) {
                try parser.setBodyLimit(limit)
            } catch {
                respondNow(ErrorRendering.render(error, request: request, renderer: match.group.errorRenderer),
                           closing: true)
                return
            }
        }
        if head.expectsContinue && hasBody {
            appendOutput(Connection.continueLine)
            flush()
        }
    }

    /// 414 or 431 when the head exceeds limits the group lowered below the server's.
    static func groupLimitError(_ head: RequestHead, _ group: CompiledGroup) -> HTTPError? {
        guard let limits = group.limits else { return nil }
        if head.target.utf8.count > limits.maxRequestTarget { return .uriTooLong }
        if head.headers.count > limits.maxHeaderCount { return .headerFieldsTooLarge }
        var bytes = 0
        for (name, value) in head.headers {
            // name ": " value CRLF, as the parser counts a field line.
            bytes += name.utf8.count + value.utf8.count + 4
        }
        return bytes > limits.maxHeaderBytes ? .headerFieldsTooLarge : nil
    }

    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private func respondNow(_ response: HTTPResponse, closing: Bool) {
        keepAlive = false
        startResponse(response, closing: closing)
    }

    /// A chunk of body arrived.
    func appendBody(_ chunk: [UInt8]) {
        guard current != nil else { return }
        do throws(FileIOError) {
            try current?.body.append(chunk)
        } catch {
            context.logger.error("request body spooling failed: \(error.description)")
            respondNow(HTTPResponse.plainError(.internalServerError, "internal server error"), closing: true)
        }
    }

    /// The request is complete: answer at once when routing already decided, else hand it to a worker.
    func endRequest() {
        guard let state = current else { return }
        if let immediate = state.immediate {
            startResponse(immediate, closing: false)
            return
        }
        guard let match = state.match else { return }
        state.request.body = state.body.finish()
        phase = .handling
        deadline = 0
        let request = state.request
        let handler = match.route.handler
        let renderer = match.group.errorRenderer
        let sequence = self.sequence
        let loop = self.loop
        context.workers.submit { [self] in
            let reply: Reply
            do {
                reply = try handler(request)
            } catch {
                reply = .response(ErrorRendering.render(error, request: request, renderer: renderer))
            }
            loop.post(.reply(self, sequence, reply))
        }
    }

    /// A handler's reply arrived from a worker.
    func deliver(_ reply: Reply, sequence: UInt64) {
        guard phase == .handling, sequence == self.sequence else {
            // The connection closed while the handler ran.
            if case .parked(let parked) = reply { context.workers.submit { parked.clientGone() } }
            if sequence == self.sequence { current?.discardBody() }
            return
        }
        switch reply {
        case .response(let response):
            startResponse(response, closing: false)
        case .parked(let parked):
            if peerClosed {
                context.workers.submit { parked.clientGone() }
                close()
                return
            }
            phase = .parked
            current?.parked = parked
            context.parkedRequests.add(1, ordering: .relaxed)
            context.reportConnections()
            let token = StreamToken(connection: id, sequence: sequence)
            loop.timers.insert(.init(deadline: Sys.monotonicNanos() &+ Sys.nanos(parked.timeout), token: token))
            if loop.draining {
                context.workers.submit { parked.serverShutdown() }
            }
            parked.attach(sink: loop, token: token)
        }
    }

    /// A parked request was completed (by anyone, or by its timeout response).
    func deliverParked(_ response: HTTPResponse, token: StreamToken) {
        guard phase == .parked, token.sequence == sequence else { return }
        context.parkedRequests.subtract(1, ordering: .relaxed)
        context.reportConnections()
        startResponse(response, closing: false)
    }

    /// A parked request's deadline passed: its `onTimeout` response is built on a worker (it may touch
    /// storage) and arrives back through `deliverParked`.
    func parkTimerFired(_ token: StreamToken) {
        guard phase == .parked, token.sequence == sequence, let parked = current?.parked else { return }
        context.workers.submit { parked.fireTimeout() }
    }

    /// The server is shutting down: idle connections close now, parked requests are answered with their
    /// timeout response, streams end, everything else closes after its response.
    func drain() {
        switch phase {
        case .readingHead where input.count == inputStart:
            close()
        case .parked:
            if let parked = current?.parked { context.workers.submit { parked.serverShutdown() } }
        case .writing:
            keepAlive = false
            if let stream, !streamEnded {
                finishStream()
                context.workers.submit { stream.clientGone() }
            }
        default:
            keepAlive = false
        }
    }
}
