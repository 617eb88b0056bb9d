import Foundation
import Glibc

/// An SMTP relay stand-in on loopback (no TLS): speaks enough of RFC 5321 for one mail per connection,
/// records each accepted message (envelope and data), and can refuse recipients.
final class FakeSMTPServer: @unchecked Sendable {
    struct Message {
        var from: String
        var to: String
        var data: String
    }

    private let fd: Int32
    let port: Int
    private let lock = NSLock()
    private var stored: [Message] = []
    private var refusals = 0
    private var stopped = false
    /// Answer `RCPT` with 550 (a permanent refusal).
    var refuseRecipients: Bool {
        get { lock.lock(); defer { lock.unlock() }; return refusing }
        set { lock.lock(); refusing = newValue; lock.unlock() }
    }
    private var refusing = false

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
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
        Thread { [weak self] in self?.serve() }.start()
    }

    deinit { stop() }

    func stop() {
        lock.lock()
        let was = stopped
        stopped = true
        lock.unlock()
        if !was {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    var messages: [Message] { lock.lock(); defer { lock.unlock() }; return stored }
    var refusedCount: Int { lock.lock(); defer { lock.unlock() }; return refusals }

    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                lock.lock(); let done = stopped; lock.unlock()
                if done { return }
                continue
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            session(client)
            close(client)
        }
    }

    private func session(_ client: Int32) {
        var buffer: [UInt8] = []
        func send(_ line: String) { _ = Array((line + "\r\n").utf8).withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        func readLine() -> String? {
            while true {
                if let lf = buffer.firstIndex(of: 10) {
                    var line = Array(buffer[0..<lf])
                    buffer.removeFirst(lf + 1)
                    if line.last == 13 { line.removeLast() }
                    return String(decoding: line, as: UTF8.self)
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = recv(client, &chunk, chunk.count, 0)
                if n <= 0 { return nil }
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
        send("220 fake.example ESMTP")
        var from = "", to = ""
        while let line = readLine() {
            let upper = line.uppercased()
            if upper.hasPrefix("EHLO") {
                send("250-fake.example")
                send("250 8BITMIME")
            } else if upper.hasPrefix("MAIL FROM:") {
                from = String(line.dropFirst(10))
                send("250 OK")
            } else if upper.hasPrefix("RCPT TO:") {
                to = String(line.dropFirst(8))
                if refuseRecipients {
                    lock.lock(); refusals += 1; lock.unlock()
                    send("550 no such user")
                } else {
                    send("250 OK")
                }
            } else if upper == "DATA" {
                send("354 go ahead")
                var data: [String] = []
                while let dataLine = readLine(), dataLine != "." { data.append(dataLine) }
                lock.lock(); stored.append(Message(from: from, to: to, data: data.joined(separator: "\n"))); lock.unlock()
                send("250 queued")
            } else if upper == "QUIT" {
                send("221 bye")
                return
            } else {
                send("500 unknown")
            }
        }
    }
}
