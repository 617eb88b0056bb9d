import Glibc

extension Connection {
    /// Input buffered beyond this while a request is being served pauses reading (pipelining clients
    /// cannot make the server buffer without bound).
    static let maxBufferedInput = 1 << 20

    /// Reads everything the socket has (edge-triggered epoll only reports new data once), feeding the
    /// parser after each read.
    func readAvailable(hangUp: Bool = true) {
        hangUpSeen = hangUp
        while phase != .closed {
            let busy = phase == .handling || phase == .queued || phase == .parked || phase == .writing
            if busy && input.count - inputStart > Connection.maxBufferedInput {
                readPaused = true
                return
            }
            switch transportRead() {
            case .data(let count):
                if phase == .lingering { continue }
                input.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                if phase == .handling { needsReplySoon.store(true, ordering: .sequentiallyConsistent) }
                noteInputArrived(count)
                processInput()
                // A short plain read drained the socket: the next arrival raises a new edge, so the usual
                // extra read that would only return EAGAIN is skipped (not after a hang-up, whose EOF must
                // still be read; TLS may hold decrypted bytes back, so it always reads on).
                if count < loop.readBuffer.count && tls == nil && !hangUpSeen { return }
            case .wouldBlock:
                return
            case .endOfStream:
                peerClosed = true
                peerDidClose()
                return
            case .failed:
                close()
                return
            }
        }
    }

    /// Bytes arrived: a keep-alive connection starts its header-read clock, a body upload earns time at the
    /// minimum body rate (see `BodyDeadline`).
    private func noteInputArrived(_ count: Int) {
        if phase == .readingHead && awaitingFirstByte {
            awaitingFirstByte = false
            deadline = loop.now &+ context.headerTimeoutNanos
        } else if phase == .readingBody {
            deadline = context.bodyDeadline.extended(deadline, bytes: count, now: loop.now)
        }
    }

    /// The client closed its sending side. It may only have half-closed (`shutdown(SHUT_WR)`) and still be
    /// reading, so every request it sent completely is answered, pipelined ones included, before the
    /// connection closes (`processInput` closes once no complete request is left); an incomplete one is
    /// never handled.
    private func peerDidClose() {
        switch phase {
        case .readingHead, .readingBody, .lingering:
            // The request being read can no longer be completed.
            close()
        case .parked where current?.parked?.awaitsCompletionOnShutdown != true:
            // A long poll cannot tell a half-close from a client that left, and must notice the latter.
            close()
        case .writing where stream != nil && !streamEnded:
            // A feed has no natural end; its reader left, so stop producing.
            close()
        case .handling:
            // The reply must be handled promptly: the loop decides then whether anything follows.
            needsReplySoon.store(true, ordering: .sequentiallyConsistent)
        case .queued, .parked, .writing, .closed:
            // A parked write's outcome, a response being sent and the answer to a complete request waiting
            // for the decoding budget still reach a half-closed client.
            break
        }
    }

    /// Runs the parser over buffered input while the connection is reading a request.
    func processInput() {
        if processing { return }
        processing = true
        defer { processing = false }
        // After a head the parser must be called again even with no new bytes: that is where a bodiless
        // request's `.end` comes from.
        var mustParse = false
        while phase == .readingHead || phase == .readingBody {
            let available = input.count - inputStart
            if available == 0 && !mustParse { break }
            mustParse = false
            let result = parseBuffered()
            let consumed: Int
            switch result {
            case .success(let count): consumed = count
            case .failure(let error):
                earlyError(error)
                return
            }
            inputStart += consumed
            let produced = !events.isEmpty
            // Each event is moved out of the list (a `.end` left in its place) instead of copied: a copy
            // retained every string of a head, and the list's destruction released them again. Nothing
            // below touches `events` (`processing` keeps `processInput` from running again meanwhile).
            var index = 0
            while index < events.count {
                var event = ParseEvent.end
                swap(&event, &events[index])
                index += 1
                switch event {
                case .head(let head):
                    beginRequest(head)
                    mustParse = true
                case .body(let chunk):
                    appendBody(chunk)
                case .end:
                    endRequest()
                }
            }
            // Only `.end`s are left; popping them keeps the capacity without the generic range removal.
            while let _ = events.popLast() {}
            if consumed == 0 && !produced { break }
        }
        compactInput()
        // After the client's end of input, a request still being read can never be completed.
        if peerClosed && (phase == .readingHead || phase == .readingBody) { close() }
    }

    private func parseBuffered() -> Result<Int, HTTPError> {
        input.withUnsafeBytes { raw -> Result<Int, HTTPError> in
            let slice = UnsafeRawBufferPointer(rebasing: raw[inputStart...])
            do throws(HTTPError) {
                return .success(try parser.consume(slice, into: &events))
            } catch {
                return .failure(error)
            }
        }
    }

    private func compactInput() {
        if inputStart >= input.count {
            input.removeAll(keepingCapacity: input.capacity <= 64 * 1024)
            inputStart = 0
        } else if inputStart > 32 * 1024 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// The parser rejected the input: answer (rendered by the group the target points at, when the
    /// request line got that far) and close, because the byte stream can no longer be trusted.
    func earlyError(_ error: HTTPError) {
        let rawPath = current?.rawPath ?? sniffTarget()
        let group = rawPath.flatMap { context.router.table().group(forRawPath: $0, host: current?.head.headers["Host"]) }
        let response = ErrorRendering.render(error, request: current?.request, renderer: group?.errorRenderer)
        current?.group = group
        current?.corsDone = true
        keepAlive = false
        startResponse(response, closing: true)
    }

    /// The path of a request line that failed to parse (414, 431), so the right API renders the error.
    private func sniffTarget() -> String? {
        let bytes = input[inputStart...].prefix(8192)
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let target = bytes[(space + 1)...].prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "?") && $0 != 13 }
        guard target.first == UInt8(ascii: "/") else { return nil }
        return String(decoding: target, as: UTF8.self)
    }
}
