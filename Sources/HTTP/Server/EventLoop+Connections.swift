import Dispatch
import Glibc

extension EventLoop {
    /// Accepts what is waiting on `listener` (bounded per wake-up so one busy listener cannot starve the
    /// connections already open).
    func acceptConnections(_ listener: Listener) {
        for _ in 0..<128 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutableBytes(of: &address) { raw -> Int32 in
                guard let base = raw.baseAddress else { return -1 }
                return Epoll.accept(listener.fd, base, &length)
            }
            if fd < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if code == EMFILE || code == ENFILE {
                    context.logger.warning("accept failed: \(Sys.errorText(code))")
                }
                return
            }
            let open = context.openConnections.add(1, ordering: .relaxed).newValue
            if draining || open > context.configuration.maxConnections {
                // Over the limit (or shutting down): accepted and closed at once, so the client sees a
                // clean close instead of hanging in the backlog.
                context.openConnections.subtract(1, ordering: .relaxed)
                close(fd)
                continue
            }
            Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            var tlsSession: TLSSession?
            if listener.isTLS {
                guard let tls = context.tls, let session = TLSSession(context: tls, fd: fd) else {
                    context.openConnections.subtract(1, ordering: .relaxed)
                    close(fd)
                    continue
                }
                tlsSession = session
            }
            nextConnectionID += 1
            let connection = Connection(loop: self, fd: fd, id: nextConnectionID,
                                        remoteAddress: Sys.addressText(address), tls: tlsSession)
            add(connection)
        }
    }

    private func add(_ connection: Connection) {
        let fd = Int(connection.fd)
        if fd >= connectionsByFD.count {
            connectionsByFD.append(contentsOf: repeatElement(nil, count: fd + 1 - connectionsByFD.count + 64))
        }
        connectionsByFD[fd] = connection
        connections[connection.id] = connection
        // Edge-triggered for both directions, registered once: no epoll_ctl per request or per write.
        Epoll.add(epfd, connection.fd, events: Epoll.in | Epoll.out | Epoll.rdhup | Epoll.edgeTriggered)
        context.reportConnections()
        connection.started()
    }

    /// Forgets a connection the connection itself has just closed.
    func removed(_ connection: Connection) {
        let fd = Int(connection.fd)
        if fd < connectionsByFD.count, connectionsByFD[fd] === connection { connectionsByFD[fd] = nil }
        connections[connection.id] = nil
        context.openConnections.subtract(1, ordering: .relaxed)
        context.reportConnections()
    }

    func handle(_ message: Message) {
        switch message {
        case .reply(let connection, let sequence, let reply):
            requestsInFlight -= 1
            connection.deliver(reply, sequence: sequence)
        case .parked(let token, let response):
            connections[token.connection]?.deliverParked(response, token: token)
        case .chunk(let token, let bytes):
            connections[token.connection]?.streamChunk(bytes, token: token)
        case .streamEnd(let token, let lastChunk):
            connections[token.connection]?.streamEnded(token: token, lastChunk: lastChunk)
        case .streamTimer(let token, let timer):
            connections[token.connection]?.streamTimerSet(timer, token: token)
        case .stopAccepting(let done):
            stopListening()
            done.signal()
        case .drain:
            context.shuttingDown.store(true, ordering: .relaxed)
            stopListening()
            draining = true
            for connection in connections.values { connection.drain() }
        case .stop:
            stopping = true
        }
    }

    /// Takes the listeners out of this loop's epoll set; the server closes them once every loop did.
    func stopListening() {
        for listener in listeners {
            Epoll.remove(epfd, listener.fd)
        }
        listeners = []
    }

    /// Closes every connection (parked and streaming ones see their client go) on the way out.
    func closeEverything() {
        stopListening()
        for connection in connections.values { connection.close() }
    }
}

extension EventLoop: ResponseSink {
    func streamChunk(_ bytes: [UInt8], token: StreamToken) { post(.chunk(token, bytes)) }
    func streamFinished(token: StreamToken) { post(.streamEnd(token, [])) }
    func streamFinished(token: StreamToken, lastChunk: [UInt8]) { post(.streamEnd(token, lastChunk)) }
    func streamTimer(_ timer: StreamTimer, token: StreamToken) { post(.streamTimer(token, timer)) }
    func parkedCompleted(_ response: HTTPResponse, token: StreamToken) { post(.parked(token, response)) }
}
