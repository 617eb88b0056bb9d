import Foundation
import Glibc

/// A stand-in for the social providers on loopback: answers each path with the status and body set for
/// it, and records every request (target and headers) so tests can check what the server sent.
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

    init() throws {
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
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

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
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.containsHeadEnd {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { return }
            data.append(contentsOf: buffer[0..<n])
        }
        let head = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
        lock.lock()
        recorded.append(Recorded(target: target, headers: headers))
        let (status, body) = answers[path] ?? (404, "{\"error\":\"unknown\"}")
        lock.unlock()
        let bytes = Array(body.utf8)
        let response = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
        _ = (Array(response.utf8) + bytes).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

private extension Array where Element == UInt8 {
    var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
