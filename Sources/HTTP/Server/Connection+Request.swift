import Glibc

extension Connection {
    /// A request head arrived: route it, apply the route's body limit and decide on `100 Continue`. The
    /// full `HTTPRequest` is built later by the worker; only requests answered here get one now.
    func beginRequest(_ head: RequestHead) {
        sequence &+= 1
        phase = .readingBody
        awaitingFirstByte = false
        let now = Sys.monotonicNanos()
        deadline = context.bodyDeadline.start(now: now)
        keepAlive = head.keepAlive
        // The configuration's fields are read where they are needed: a copy of the whole struct retained
        // and released each of its strings and arrays on every request.
        let context = self.context
        let rawPath = Connection.rawPath(of: head.target)
        let table = loop.routeTable()
        // The Host header matters only to groups with a host pattern.
        let resolution = table.resolve(method: head.method, host: table.hasHostGroups ? head.headers["Host"] : nil,
                                       rawPath: rawPath)
        var threshold = context.configuration.limits.inMemoryBodyThreshold
        if case .matched(let match) = resolution {
            threshold = match.group.effectiveLimits(context.configuration.limits).inMemoryBodyThreshold
        }
        let state = RequestState(head: head, rawPath: rawPath,
                                 requestID: context.requestIDs.id(for: head.headers["X-Request-Id"]),
                                 body: RequestBodyCollector(inMemoryThreshold: threshold,
                                                            tempDirectory: context.configuration.tempDirectory),
                                 startNanos: now)
        current = state
        var immediate: HTTPError?
        switch resolution {
        case .matched(let match):
            state.match = match
            state.group = match.group
        case .preflight(let group, _):
            state.group = group
        case .methodNotAllowed(let group, let allowed):
            state.group = group
            immediate = .methodNotAllowed(allowed: allowed)
        case .notFound(let group):
            state.group = group
            immediate = .notFound
        }
        if let group = state.group, let error = Connection.groupLimitError(head, group) {
            // The parser applied the server-wide limits; a group may have lowered them.
            immediate = error
        } else if head.headers.contains("Expect") && !head.expectsContinue {
            immediate = .expectationFailed
        }
        if state.match == nil || immediate != nil {
            state.match = nil
            guard prepareImmediate(state, resolution: resolution, error: immediate) else { return }
        }
        let hasBody = head.framing != .none && head.framing != .contentLength(0)
        if let response = state.immediate {
            // Without a handler the body is never read: answer now and close if one follows.
            if hasBody { respondNow(response, closing: true) }
            return
        }
        if let match = state.match {
            var limit = match.route.maxBodyBytes ?? match.group.effectiveLimits(context.configuration.limits).maxBodyBytes
            if let rule = match.route.bodyLimit, hasBody { limit = min(limit, rule(head, rawPath)) }
            do throws(HTTPError) {
                try parser.setBodyLimit(limit)
            } catch {
                respondNow(ErrorRendering.render(error, request: nil, renderer: match.group.errorRenderer),
                           closing: true)
                return
            }
        }
        if head.expectsContinue && hasBody {
            appendOutput(Connection.continueLine)
            flush()
        }
    }

    /// Builds the request and the answer for a request no handler takes (404, 405, preflight, limit
    /// errors). Returns false when the target itself is invalid and the connection is being closed.
    private func prepareImmediate(_ state: RequestState, resolution: RouteResolution, error: HTTPError?) -> Bool {
        var request: HTTPRequest
        do throws(HTTPError) {
            request = try HTTPRequest(method: state.head.method, target: state.head.target,
                                      version: state.head.version, headers: state.head.headers, body: .empty,
                                      remoteAddress: remoteAddress, isTLS: tls != nil, requestID: state.requestID,
                                      decodingPath: state.group?.decodesPath ?? true,
                                      parsingQuery: state.group?.parsesQuery ?? true)
        } catch {
            earlyError(error)
            return false
        }
        request.receivedAt = state.receivedAt
        state.request = request
        if let error {
            state.immediate = ErrorRendering.render(error, request: request, renderer: state.group?.errorRenderer)
        } else if case .preflight(let group, let methods) = resolution, let cors = group.cors {
            state.immediate = cors.preflightResponse(for: request, methods: methods)
            state.corsDone = true
        }
        return true
    }

    /// The path part of a request-target ("/a/b?x" -> "/a/b"); the parser already turned absolute-form
    /// targets into origin form.
    static func rawPath(of target: String) -> String {
        // memchr over the bytes: `utf8.firstIndex(of:)` went through the view's index byte by byte.
        var text = target
        let mark = text.withUTF8 { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "?")), bytes.count) else {
                return nil
            }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
        guard let mark else { return target }
        let utf8 = target.utf8
        return String(target[..<utf8.index(utf8.startIndex, offsetBy: mark)])
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
        guard state.match != nil else { return }
        phase = .handling
        deadline = 0
        let body = state.finishBody()
        let charge = context.decodingBudget.charge(forBodyBytes: body.count)
        if charge > 0, !loop.admitDecoding(self, charge: charge) {
            // Waits in the loop's queue; `admitted(charge:)` or `decodingWaitExpired()` follows.
            phase = .queued
            context.queuedForDecoding.add(1, ordering: .relaxed)
            state.decodingCharge = charge
            deadline = loop.now &+ context.decodingWaitNanos
            return
        }
        runHandler(state, body: body, charge: charge)
    }

    /// A queued request got its share of the decoding budget.
    func admitted(charge: Int) {
        guard phase == .queued, let state = current, let body = state.finishedBody else {
            context.decodingBudget.release(charge)
            return
        }
        phase = .handling
        context.queuedForDecoding.subtract(1, ordering: .relaxed)
        deadline = 0
        state.decodingCharge = 0
        runHandler(state, body: body, charge: charge)
    }

    /// Hands a complete request to a worker (or runs it here when its route allows). `charge`: bytes of the
    /// decoding budget it holds, released once the handler has returned.
    private func runHandler(_ state: RequestState, body: RequestBody, charge: Int) {
        guard let match = state.match else {
            if charge > 0 { context.decodingBudget.release(charge) }
            return
        }
        var job = RequestJob(head: state.head, match: match, body: body,
                             remoteAddress: remoteAddress, isTLS: tls != nil, requestID: state.requestID,
                             receivedAt: state.receivedAt)
        let sequence = self.sequence
        let loop = self.loop
        let context = self.context
        if match.route.runsOnIOThread, job.body.count == 0 {
            // A handler that answers at once from memory: running it here saves handing the request to a
            // worker and waking one, which costs more than such a handler (see `RouteGroup.on`).
            runOnLoop(job)
            return
        }
        if let attempt = match.route.attempt, job.body.count == 0, !match.group.hasMiddleware {
            switch job.attempt(attempt) {
            case .produced(let produced):
                finishOnLoop(produced, job: job)
                return
            case .declined(let request):
                job.prepared = request
            }
        }
        // Nothing else is queued for this socket and the loop writes nothing to it until the reply arrives,
        // so the worker may send a plain response itself: the send then runs in parallel with this loop.
        let direct = tls == nil && out.count == outOffset && outExtra.isEmpty
        needsReplySoon.store(input.count > inputStart || peerClosed, ordering: .sequentiallyConsistent)
        loop.requestsInFlight += 1
        loop.submit { [self, job] in
            var outcome = job.run(context: context)
            // The handler has returned, and with it the body it read and what it parsed: the budget is
            // free again, and the heap is trimmed once the last large request of a burst is done. A parked
            // write (a queued write job: Couch's `_bulk_docs`, document writes) still holds what was parsed
            // until its job has run, so its share is returned, and the heap trimmed, when its reply finishes;
            // otherwise the next bodies would be decoded while it is still in memory, and what the job frees
            // would stay in the heap. A long poll holds nothing of its body and returns its share now.
            var held = false
            if charge > 0, case .parked(let parked) = outcome, parked.awaitsCompletionOnShutdown {
                held = true
                parked.onFinish {
                    if context.decodingBudget.release(charge) {
                        HeapTrim.trimAfterBurst(then: context.configuration.afterBurst)
                    }
                }
            }
            let idle = charge > 0 && !held && context.decodingBudget.release(charge)
            // After the reply is on its way.
            defer { if idle { HeapTrim.trimAfterBurst(then: context.configuration.afterBurst) } }
            if direct, !context.shuttingDown.load(ordering: .relaxed),
               case .serialized(let bytes, let status, let bodyBytes, true, _) = outcome,
               let sent = sendFromWorker(bytes) {
                outcome = .written(status: status, bodyBytes: bodyBytes, leftover: Array(bytes[sent...]))
                if sent == bytes.count {
                    // The client already has its whole answer; the loop only needs the reply to log it and
                    // read the next request, whose arrival wakes it anyway. Saving the wake-up (an eventfd
                    // write and a context switch) per request is a large share of a small request's cost.
                    loop.post(.reply(self, sequence, outcome),
                              wakeUnless: { !self.needsReplySoon.load(ordering: .sequentiallyConsistent) })
                    return
                }
            }
            loop.post(.reply(self, sequence, outcome))
        }
    }

    /// Runs a job on this I/O thread. Its response is serialized straight into the output buffer (no
    /// intermediate copy), unless the connection must close after all or output is already queued behind a
    /// large piece; those go the way of a worker's outcome.
    private func runOnLoop(_ job: RequestJob) {
        finishOnLoop(job.produce(), job: job)
    }

    /// Sends what a job produced on this I/O thread (see `runOnLoop`).
    private func finishOnLoop(_ produced: RequestJob.Produced, job: RequestJob) {
        switch produced {
        case .outcome(let outcome):
            deliver(outcome, sequence: sequence)
        case .response(let response):
            if !mustCloseAfterResponse, outExtra.isEmpty,
               let written = job.encode(response, date: loop.dates.line(), server: loop.serverHeaderLine,
                                        into: &out) {
                keepAlive = written.keepAlive
                beginWriting(status: written.status, bodyBytes: written.bodyBytes)
            } else {
                current?.corsDone = true
                startResponse(response, closing: false)
            }
        }
    }

    /// A worker's outcome arrived.
    func deliver(_ outcome: RequestJob.Outcome, sequence: UInt64) {
        guard phase == .handling, sequence == self.sequence else {
            // The connection closed while the handler ran.
            if case .parked(let parked) = outcome { context.workers.submit { parked.clientGone() } }
            if sequence == self.sequence { current?.discardBody() }
            return
        }
        switch outcome {
        case .written(let status, let bodyBytes, let leftover):
            finishWritten(status: status, bodyBytes: bodyBytes, leftover: leftover)
        case .serialized(let bytes, let status, let bodyBytes, let keepAlive, let response):
            startSerialized(bytes, status: status, bodyBytes: bodyBytes, keepAlive: keepAlive, response: response)
        case .response(let response, let corsApplied, let closing):
            if corsApplied { current?.corsDone = true }
            startResponse(response, closing: closing)
        case .parked(let parked):
            // A long poll whose client stopped sending ends; a write still owes the client its outcome.
            if peerClosed && !parked.awaitsCompletionOnShutdown {
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
    /// timeout response, streams end (through their `onEnd` handler when they have one), everything else
    /// closes after its response.
    func drain() {
        switch phase {
        case .readingHead where input.count == inputStart:
            close()
        case .parked:
            if let parked = current?.parked { context.workers.submit { parked.serverShutdown() } }
        case .writing:
            keepAlive = false
            endStreamByServer(.shutdown)
        case .queued:
            // No room will be made for it before the server stops.
            keepAlive = false
            decodingWaitExpired()
        default:
            keepAlive = false
        }
    }
}
