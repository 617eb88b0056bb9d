import Foundation
import Glibc

/// A stand-in for the social providers on loopback: answers each path with the status and body set for
/// it, and records every request (target and headers) so tests can check what the server sent. With a
/// `TestPKI` it speaks HTTPS at `https://localhost:<port>`, presenting the leaf named by `certificate`, and
/// counts the handshakes the client broke off.
final class FakeSocialProvider: @unchecked Sendable {
    struct Recorded {
        var target: String
        var headers: [String: String]
    }

    private let fd: Int32
    let port: Int
    private let lock = NSLock()
    private var answers: [String: (Int, String)] = [:]
    private var recorded: [Recorded] = []
    private var stopped = false
    private let pki: TestPKI?
    private var context: FakeTLSContext?
    private var failedHandshakes = 0

    /// The leaf of the PKI presented from the next connection on (`localhost`, `wrong-host`, `untrusted`).
    var certificate: String {
        get { lock.lock(); defer { lock.unlock() }; return presenting }
        set { lock.lock(); presenting = newValue; context = nil; lock.unlock() }
    }
    private var presenting = "localhost"
    /// Handshakes the client broke off.
    var handshakeFailures: Int { lock.lock(); defer { lock.unlock() }; return failedHandshakes }

    init(tls pki: TestPKI? = nil) throws {
        self.pki = pki
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        guard port > 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        let thread = Thread { [weak self] in self?.serve() }
        thread.start()
    }

    deinit { stop() }

    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    /// The base URL of `path` on this provider.
    func url(_ path: String) -> String { pki == nil ? "http://127.0.0.1:\(port)\(path)" : "https://localhost:\(port)\(path)" }

    /// Answers requests whose path is `path` with `status` and `body`.
    func answer(_ path: String, status: Int = 200, body: String) {
        lock.lock(); answers[path] = (status, body); lock.unlock()
    }

    /// The requests received so far.
    var requests: [Recorded] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                lock.lock(); let done = stopped; lock.unlock()
                if done { return }
                continue
            }
            let stream = FakeServerStream(fd: client)
            if tlsHandshake(stream) { handle(stream) }
            stream.shutdown()
            close(client)
        }
    }

    /// True when the connection is ready for HTTP: plain, or TLS after a completed handshake.
    private func tlsHandshake(_ stream: FakeServerStream) -> Bool {
        guard let pki else { return true }
        lock.lock()
        let leaf = pki.leaf(presenting)
        if context == nil { context = try? FakeTLSContext(certificate: leaf.certificate, key: leaf.key) }
        let current = context
        lock.unlock()
        if let current, stream.startTLS(current) { return true }
        lock.lock(); failedHandshakes += 1; lock.unlock()
        return false
    }

    private func handle(_ stream: FakeServerStream) {
        guard let requestLine = stream.readLine()?.split(separator: " ") else { return }
        let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
        var headers: [String: String] = [:]
        while let line = stream.readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        lock.lock()
        recorded.append(Recorded(target: target, headers: headers))
        let (status, body) = answers[path] ?? (404, "{\"error\":\"unknown\"}")
        lock.unlock()
        stream.send("HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }
}
