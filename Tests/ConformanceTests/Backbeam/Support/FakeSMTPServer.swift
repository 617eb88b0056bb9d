import Foundation
import Glibc

/// An SMTP relay stand-in on loopback: speaks enough of RFC 5321 for one mail per connection (EHLO, STARTTLS,
/// AUTH PLAIN, MAIL/RCPT/DATA), records each accepted message (envelope, data, whether it came through TLS),
/// every command received in clear and every failed TLS handshake, and can refuse recipients. Without a
/// `TestPKI` it speaks plain text only; with one it speaks TLS from the first byte (`.implicit`) or offers
/// STARTTLS (`.startTLS`), presenting the PKI's leaf certificate named by `certificate`.
final class FakeSMTPServer: @unchecked Sendable {
    struct Message {
        var from: String
        var to: String
        var data: String
        var overTLS: Bool
        /// The decoded `AUTH PLAIN` credentials (`\0user\0password`) of the session, if any.
        var auth: String?
    }

    enum TLSMode {
        case none, implicit, startTLS
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
    private let mode: TLSMode
    private let pki: TestPKI?
    private var contexts: [String: FakeTLSContext] = [:]
    private var presenting = "localhost"
    private var offering = true
    private var clear: [String] = []
    private var failedHandshakes = 0

    /// The leaf of the PKI presented from the next connection on (`localhost`, `wrong-host`, `untrusted`).
    var certificate: String {
        get { lock.lock(); defer { lock.unlock() }; return presenting }
        set { lock.lock(); presenting = newValue; lock.unlock() }
    }
    /// Whether EHLO lists STARTTLS (in `.startTLS` mode).
    var offersStartTLS: Bool {
        get { lock.lock(); defer { lock.unlock() }; return offering }
        set { lock.lock(); offering = newValue; lock.unlock() }
    }
    /// Every command line received before TLS, in order.
    var commandsInClear: [String] { lock.lock(); defer { lock.unlock() }; return clear }
    /// Handshakes the client broke off.
    var handshakeFailures: Int { lock.lock(); defer { lock.unlock() }; return failedHandshakes }

    init(tls mode: TLSMode = .none, pki: TestPKI? = nil) throws {
        self.mode = mode
        self.pki = pki
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
            session(FakeServerStream(fd: client))
            close(client)
        }
    }

    /// The context presenting the current certificate.
    private func context() -> FakeTLSContext? {
        lock.lock(); defer { lock.unlock() }
        guard let pki else { return nil }
        if let made = contexts[presenting] { return made }
        let leaf = pki.leaf(presenting)
        let made = try? FakeTLSContext(certificate: leaf.certificate, key: leaf.key)
        contexts[presenting] = made
        return made
    }

    private func handshake(_ stream: FakeServerStream) -> Bool {
        if let context = context(), stream.startTLS(context) { return true }
        lock.lock(); failedHandshakes += 1; lock.unlock()
        return false
    }

    private func session(_ stream: FakeServerStream) {
        defer { stream.shutdown() }
        if mode == .implicit, !handshake(stream) { return }
        stream.send("220 fake.example ESMTP\r\n")
        var from = "", to = "", auth: String?
        while let line = stream.readLine() {
            if !stream.isTLS { lock.lock(); clear.append(line); lock.unlock() }
            let upper = line.uppercased()
            if upper.hasPrefix("EHLO") {
                var reply = "250-fake.example\r\n"
                if mode == .startTLS && offersStartTLS && !stream.isTLS { reply += "250-STARTTLS\r\n" }
                stream.send(reply + "250-AUTH PLAIN\r\n250 8BITMIME\r\n")
            } else if upper == "STARTTLS" && mode == .startTLS && offersStartTLS && !stream.isTLS {
                stream.send("220 go ahead\r\n")
                if !handshake(stream) { return }
            } else if upper.hasPrefix("AUTH PLAIN ") {
                auth = String(decoding: Data(base64Encoded: String(line.dropFirst(11))) ?? Data(), as: UTF8.self)
                stream.send("235 accepted\r\n")
            } else if upper.hasPrefix("MAIL FROM:") {
                from = String(line.dropFirst(10))
                stream.send("250 OK\r\n")
            } else if upper.hasPrefix("RCPT TO:") {
                to = String(line.dropFirst(8))
                if refuseRecipients {
                    lock.lock(); refusals += 1; lock.unlock()
                    stream.send("550 no such user\r\n")
                } else {
                    stream.send("250 OK\r\n")
                }
            } else if upper == "DATA" {
                stream.send("354 go ahead\r\n")
                var data: [String] = []
                while let dataLine = stream.readLine(), dataLine != "." { data.append(dataLine) }
                let message = Message(from: from, to: to, data: data.joined(separator: "\n"), overTLS: stream.isTLS, auth: auth)
                lock.lock(); stored.append(message); lock.unlock()
                stream.send("250 queued\r\n")
            } else if upper == "QUIT" {
                stream.send("221 bye\r\n")
                return
            } else {
                stream.send("500 unknown\r\n")
            }
        }
    }
}
