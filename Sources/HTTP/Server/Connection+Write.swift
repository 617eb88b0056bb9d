import Glibc

extension Connection {
    /// Writes queued output until done or the socket is full (edge-triggered EPOLLOUT calls back then).
    func flush() {
        while phase != .closed {
            // Queued bytes go first: a file's chunks follow the headers and body bytes queued before them.
            let outcome: WriteOutcome
            if out.count - outOffset > 0 || !outExtra.isEmpty {
                outcome = writeQueued()
            } else if file != nil {
                outcome = sendFileChunk()
            } else {
                break
            }
            switch outcome {
            case .progress: continue
            case .wouldBlock:
                armWriteDeadline()
                return
            case .failed:
                close()
                return
            }
        }
        guard phase == .writing else { return }
        // A finished response sets the next deadline itself (or closes).
        if streamEnded {
            responseFinished()
        } else {
            // A feed (a stream with timers) may stay silent for longer than the idle time-out; only a
            // client that stops reading its output is timed out (`armWriteDeadline`).
            deadline = streamTimers == nil ? loop.now &+ context.idleTimeoutNanos : 0
        }
    }

    /// The socket is full: a response whose writing has no deadline (a feed) gets the idle time-out now.
    private func armWriteDeadline() {
        if deadline == 0 && phase == .writing { deadline = loop.now &+ context.idleTimeoutNanos }
    }

    enum WriteOutcome { case progress, wouldBlock, failed }

    /// One write of the head buffer and, when there is one, the first queued large piece (writev).
    private func writeQueued() -> WriteOutcome {
        let written: TransportResult
        if out.count > outOffset {
            written = out.withUnsafeBytes { head -> TransportResult in
                let first = UnsafeRawBufferPointer(rebasing: head[outOffset...])
                guard let extra = outExtra.first else { return transportWrite(first, nil) }
                return extra.withUnsafeBytes { second in
                    transportWrite(first, UnsafeRawBufferPointer(rebasing: second[outExtraOffset...]))
                }
            }
        } else if let extra = outExtra.first {
            written = extra.withUnsafeBytes { second in
                transportWrite(UnsafeRawBufferPointer(rebasing: second[outExtraOffset...]), nil)
            }
        } else {
            return .progress
        }
        switch written {
        case .data(var count):
            let headPending = out.count - outOffset
            let fromHead = min(count, headPending)
            outOffset += fromHead
            count -= fromHead
            if outOffset >= out.count {
                out.removeAll(keepingCapacity: out.capacity <= 256 * 1024)
                outOffset = 0
            }
            if count > 0, let extra = outExtra.first {
                outExtraOffset += count
                if outExtraOffset >= extra.count {
                    outExtra.removeFirst()
                    outExtraOffset = 0
                }
            } else if let extra = outExtra.first, outExtraOffset >= extra.count {
                outExtra.removeFirst()
                outExtraOffset = 0
            }
            return .progress
        case .wouldBlock:
            return .wouldBlock
        case .endOfStream, .failed:
            return .failed
        }
    }

    /// Sends part of a file body: sendfile(2) on plain sockets, read-and-encrypt through TLS.
    private func sendFileChunk() -> WriteOutcome {
        guard var sending = file else { return .progress }
        if sending.remaining <= 0 {
            sending.close()
            file = nil
            return .progress
        }
        var sent = 0
        if let tls {
            let want = min(sending.remaining, loop.readBuffer.count)
            guard let base = loop.readBuffer.baseAddress else { return .failed }
            let got = pread(sending.fd, base, want, off_t(sending.offset))
            if got <= 0 { return .failed }
            switch tls.write(UnsafeRawBufferPointer(start: base, count: got)) {
            case .data(let count): sent = count
            case .wouldBlock: return .wouldBlock
            case .endOfStream, .failed: return .failed
            }
        } else {
            var offset = off_t(sending.offset)
            // At most 1 MiB per call so one large download cannot monopolise the loop.
            let result = sendfile(fd, sending.fd, &offset, min(sending.remaining, 1 << 20))
            if result < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
                if errno == EINTR { return .progress }
                return .failed
            }
            if result == 0 { return .failed }   // file shrank under us
            sent = result
        }
        sending.offset += sent
        sending.remaining -= sent
        if sending.remaining <= 0 {
            sending.close()
            file = nil
        } else {
            file = sending
        }
        return .progress
    }
}
