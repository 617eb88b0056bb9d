import Glibc

extension Connection {
    /// Serializes `response` for the current request and starts sending it. `closing` means the request's
    /// remaining input was not read, so the connection ends after this response.
    func startResponse(_ response: HTTPResponse, closing: Bool) {
        guard phase != .closed else { return }
        var response = response
        let head = current?.head
        let isHead = head?.method == .head
        if let state = current, !state.corsDone, let cors = state.group?.cors {
            cors.apply(to: &response.headers, origin: state.head.headers["Origin"])
        }
        if closing {
            inputUnread = true
            keepAlive = false
        }
        if loop.draining { keepAlive = false }
        if ResponseHeadWriter.asksToClose(response.headers) { keepAlive = false }
        // Open a file body before writing the head, so a vanished file is a clean error, not a short body.
        var body = response.body
        if case .file(let path, let offset, let length) = body {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 || offset < 0 || length < 0 {
                if fd >= 0 { Glibc.close(fd) }
                response = HTTPResponse.plainError(.notFound, "not found")
                body = response.body
            } else if !isHead && length > 0 {
                file = FileSend(fd: fd, offset: offset, remaining: length)
            } else {
                Glibc.close(fd)
            }
        }
        let code = response.status.code
        let bodyless = isHead || code < 200 || code == 204 || code == 304
        var chunked = false
        if case .stream = body, head?.version != .http1_0 { chunked = true }
        if case .stream = body, !chunked { keepAlive = false }
        ResponseHeadWriter.write(into: &out, status: response.status, headers: response.headers,
                                 date: loop.dates.line(), server: loop.serverHeaderLine,
                                 requestID: current?.requestID, body: body, chunked: chunked,
                                 omitLength: code < 200 || code == 204 || code == 304,
                                 keepAlive: keepAlive, http10: head?.version == .http1_0)
        if !bodyless, case .bytes(let bytes) = body {
            appendOutput(bytes)
        }
        phase = .writing
        deadline = loop.now &+ context.idleTimeoutNanos
        current?.status = code
        current?.responseStarted = loop.now
        current?.bytesSent = body.knownLength ?? 0
        streamTimers = nil
        if case .stream(let producer) = body {
            let token = StreamToken(connection: id, sequence: sequence)
            let writer = StreamWriter(sink: loop, token: token)
            stream = writer
            streamChunked = chunked
            if bodyless {
                streamEnded = true
                writer.clientGone()
            } else {
                streamEnded = false
                context.workers.submit { producer(writer) }
            }
        } else {
            stream = nil
            streamEnded = true
        }
        flush()
    }

    /// Sends a response a worker serialized, unless the connection must now close while the worker
    /// assumed keep-alive (then it is serialized again with `Connection: close`).
    func startSerialized(_ bytes: [UInt8], status: Int, bodyBytes: Int, keepAlive workerKeepAlive: Bool,
                         response: HTTPResponse) {
        guard !(mustCloseAfterResponse && workerKeepAlive) else {
            current?.corsDone = true
            startResponse(response, closing: false)
            return
        }
        keepAlive = workerKeepAlive
        appendOutput(bytes)
        beginWriting(status: status, bodyBytes: bodyBytes)
    }

    /// The connection ends after the current response whatever the response says: the server is draining,
    /// or request bytes were left unread. (A client that stopped sending still gets keep-alive answers to
    /// the requests it pipelined; the connection closes once none is left.)
    var mustCloseAfterResponse: Bool { loop.draining || inputUnread }

    /// Called on a worker: one non-blocking send of a serialized response. Returns how many bytes left
    /// (0 when the socket is full or failed: the loop then sends the rest or notices the error), or nil when
    /// the connection is already closed.
    func sendFromWorker(_ bytes: [UInt8]) -> Int? {
        guard sendGate.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            return nil
        }
        defer { sendGate.store(0, ordering: .releasing) }
        while true {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent >= 0 { return sent }
            if errno != EINTR { return 0 }
        }
    }

    /// A worker sent the response (or most of it) itself: queue the rest and carry on as after any response.
    func finishWritten(status: Int, bodyBytes: Int, leftover: [UInt8]) {
        // The response announced keep-alive; closing now (shutdown) is still allowed after a complete
        // response.
        keepAlive = !loop.draining
        if !leftover.isEmpty { appendOutput(leftover) }
        beginWriting(status: status, bodyBytes: bodyBytes)
    }

    /// A complete, serialized response is queued: record it for the access log and start writing, with
    /// the idle time-out counting from now.
    func beginWriting(status: Int, bodyBytes: Int) {
        phase = .writing
        let now = loop.now
        deadline = now &+ context.idleTimeoutNanos
        current?.status = status
        current?.responseStarted = now
        current?.bytesSent = bodyBytes
        stream = nil
        streamEnded = true
        flush()
    }

    /// Queues bytes after whatever is already queued. Small pieces are copied into the one output buffer so
    /// a typical response leaves in a single write; large ones are queued as they are.
    func appendOutput(_ bytes: [UInt8]) {
        if outExtra.isEmpty && bytes.count <= 64 * 1024 {
            out.append(contentsOf: bytes)
        } else {
            outExtra.append(bytes)
        }
    }

    /// A chunk of a streamed body arrived from the producer.
    func streamChunk(_ bytes: [UInt8], token: StreamToken) {
        guard phase == .writing, token.sequence == sequence, !streamEnded, !bytes.isEmpty else { return }
        appendStreamBytes(bytes)
        streamTimers?.producerWrote(at: loop.now)
        flush()
    }

    /// Queues bytes of a streamed body, framed as a chunk when the body is chunked.
    func appendStreamBytes(_ bytes: [UInt8]) {
        current?.bytesSent += bytes.count
        if streamChunked {
            appendOutput(Array("\(String(bytes.count, radix: 16))\r\n".utf8))
            appendOutput(bytes)
            appendOutput(Connection.crlf)
        } else {
            appendOutput(bytes)
        }
    }

    /// The producer finished the stream, after a last chunk when `lastChunk` is not empty.
    func streamEnded(token: StreamToken, lastChunk: [UInt8] = []) {
        guard phase == .writing, token.sequence == sequence, !streamEnded else { return }
        if !lastChunk.isEmpty { appendStreamBytes(lastChunk) }
        finishStream()
        flush()
    }

    /// Queues the end of a streamed body.
    func finishStream() {
        streamEnded = true
        if streamChunked { appendOutput(Connection.lastChunk) }
    }

    static let crlf: [UInt8] = [13, 10]
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// Everything of the response is sent: log it, then either read the next request or close.
    func responseFinished() {
        guard let state = current else {
            closeAfterResponse()
            return
        }
        let now = Sys.monotonicNanos()
        logCompletion(state, aborted: false, now: now)
        state.discardBody()
        current = nil
        stream = nil
        streamTimers = nil
        if !keepAlive || loop.draining {
            closeAfterResponse()
            return
        }
        phase = .readingHead
        awaitingFirstByte = input.count == inputStart
        deadline = now &+ (awaitingFirstByte ? context.idleTimeoutNanos : context.headerTimeoutNanos)
        if readPaused {
            readPaused = false
            processInput()
            if phase != .closed { readAvailable() }
        } else {
            processInput()
        }
    }

    /// Ends the connection after a complete response. When the client may still be sending (unread body,
    /// pipelined requests), shut the write side and discard input for a moment: closing with unread data
    /// would send a reset that can destroy the response before the client reads it.
    private func closeAfterResponse() {
        if peerClosed || tls != nil || (!inputUnread && input.count == inputStart && !socketHasInput()) {
            close()
            return
        }
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        input.removeAll()
        inputStart = 0
        // Two seconds are plenty for the client to read the answer and close.
        deadline = Sys.monotonicNanos() &+ 2_000_000_000
        readAvailable()
    }

    /// Whether unread bytes wait in the socket (peeked, not consumed).
    private func socketHasInput() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// One access-log line and one observer call per request.
    func logCompletion(_ state: RequestState, aborted: Bool, now: UInt64 = Sys.monotonicNanos()) {
        let seconds = Double(now &- state.startNanos) / 1e9
        context.observer?.requestCompleted(group: state.group?.prefix ?? "", method: state.head.method.rawValue,
                                           status: state.status, seconds: seconds)
        guard context.accessLog else { return }
        AccessLog.write(context.logger, head: state.head, requestID: state.requestID, remoteAddress: remoteAddress,
                        status: state.status, bytes: state.bytesSent, seconds: seconds, aborted: aborted,
                        logsQuery: state.group?.logsQuery ?? true)
    }
}
