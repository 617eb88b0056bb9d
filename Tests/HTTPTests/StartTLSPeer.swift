import COpenSSL
import Foundation
import Glibc

/// A line-based peer on loopback for one client connection, in the manner of an SMTP relay: greets with
/// `220 ready` in plain text; to `STARTTLS` answers `220 go` and switches to TLS with the given certificate
/// (or, with `injectAfterGo`, sends one more line in the same packet first: an attacker's reply the client
/// must not take as coming through TLS); to any other line answers `PONG <line>`. It stops after the
/// connection or after 5 s.
final class StartTLSPeer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(certificate: String, key: String, injectAfterGo: Bool = false) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 1) == 0 else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        Thread { Self.serve(listener, certificate: certificate, key: key, injectAfterGo: injectAfterGo) }.start()
    }

    deinit { close(listener) }

    private static func serve(_ listener: Int32, certificate: String, key: String, injectAfterGo: Bool) {
        var wait = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&wait, 1, 5000) == 1 else { return }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var ssl: OpaquePointer?
        var context: OpaquePointer?
        defer { SSL_free(ssl); SSL_CTX_free(context) }
        var buffer: [UInt8] = []
        func send(_ text: String) {
            let bytes = Array(text.utf8)
            if let ssl { _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) } } else {
                _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
        func readLine() -> String? {
            while true {
                if let lf = buffer.firstIndex(of: 10) {
                    defer { buffer.removeFirst(lf + 1) }
                    return String(decoding: buffer[0..<lf], as: UTF8.self).trimmingCharacters(in: .newlines)
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { raw in
                    ssl.map { Int(SSL_read($0, raw.baseAddress, Int32(raw.count))) } ?? recv(fd, raw.baseAddress, raw.count, 0)
                }
                if n <= 0 { return nil }
                buffer += chunk[0..<n]
            }
        }
        send("220 ready\r\n")
        while let line = readLine() {
            if line == "STARTTLS" && ssl == nil {
                send(injectAfterGo ? "220 go\r\n250 injected\r\n" : "220 go\r\n")
                context = SSL_CTX_new(TLS_server_method())
                guard let context, SSL_CTX_use_certificate_chain_file(context, certificate) == 1,
                      SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else { return }
                ssl = SSL_new(context)
                guard let ssl, SSL_set_fd(ssl, fd) == 1, SSL_accept(ssl) == 1 else { return }
            } else {
                send("PONG \(line)\r\n")
            }
        }
    }
}

/// An HTTPS server on loopback for one request that answers `response` and then closes the socket without
/// TLS's close_notify, as some servers do after `Connection: close`. It stops after the connection or 5 s.
final class AbruptHTTPSPeer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(certificate: String, key: String, response: String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 1) == 0 else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        Thread {
            var wait = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&wait, 1, 5000) == 1 else { return }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            defer { close(fd) }
            guard let context = SSL_CTX_new(TLS_server_method()) else { return }
            defer { SSL_CTX_free(context) }
            guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1,
                  SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1, let ssl = SSL_new(context) else { return }
            defer { SSL_free(ssl) }
            guard SSL_set_fd(ssl, fd) == 1, SSL_accept(ssl) == 1 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = SSL_read(ssl, &request, Int32(request.count))
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            // No SSL_shutdown: the TCP connection just ends.
        }.start()
    }

    deinit { close(listener) }
}
