import Glibc

/// The outcome of one read or write on the socket (plain or TLS).
enum TransportResult {
    case data(Int)
    case wouldBlock
    case endOfStream
    case failed
}

extension Connection {
    /// Reads into the loop's scratch buffer.
    func transportRead() -> TransportResult {
        let buffer = loop.readBuffer
        if let tls { return tls.read(buffer) }
        guard let base = buffer.baseAddress else { return .failed }
        while true {
            let count = recv(fd, base, buffer.count, 0)
            if count > 0 { return .data(count) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }

    /// Writes one or two buffers (writev, so a head and a large body leave in one system call).
    func transportWrite(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?) -> TransportResult {
        if let tls { return tls.write(first) }
        // One buffer (every response of up to 64 KiB): send, not writev. On a socket, writev goes through
        // the file layer first (iovec import, access checks, file notifications), about 1.5 % of the CPU
        // time of a small request on loopback in a profile; send goes straight to the socket.
        guard let second else {
            return retryingWrite { send(fd, first.baseAddress, first.count, Int32(MSG_NOSIGNAL)) }
        }
        var vectors = (iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                       iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count))
        return retryingWrite {
            withUnsafePointer(to: &vectors) {
                $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(fd, $0, 2) }
            }
        }
    }

    /// Runs one write system call, again when a signal interrupted it.
    private func retryingWrite(_ call: () -> Int) -> TransportResult {
        while true {
            let written = call()
            if written >= 0 { return .data(written) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }
}
