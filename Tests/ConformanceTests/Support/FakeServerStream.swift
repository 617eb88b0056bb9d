import COpenSSL
import Foundation
import Glibc

/// A server-side OpenSSL context for the fake relay and provider: one certificate chain and its key.
final class FakeTLSContext: @unchecked Sendable {
    let pointer: OpaquePointer

    init(certificate: String, key: String) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw POSIXError(.ENOMEM) }
        guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1,
              SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            SSL_CTX_free(context)
            throw POSIXError(.ENOENT)
        }
        pointer = context
    }

    deinit { SSL_CTX_free(pointer) }
}

/// One accepted connection of a fake server, line by line: plain text until `startTLS` (at once for implicit
/// TLS, after the STARTTLS reply otherwise). Blocking, with the socket's receive time-out as the bound.
final class FakeServerStream {
    private let fd: Int32
    private var ssl: OpaquePointer?
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { SSL_free(ssl) }

    /// Whether bytes now travel through TLS.
    var isTLS: Bool { ssl != nil }

    /// Runs the server side of the handshake; false when it failed (the client refused the certificate).
    func startTLS(_ context: FakeTLSContext) -> Bool {
        guard let ssl = SSL_new(context.pointer) else { return false }
        self.ssl = ssl
        return SSL_set_fd(ssl, fd) == 1 && SSL_accept(ssl) == 1
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        if let ssl {
            _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        } else {
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// The next line without CRLF; nil at the end of the stream or after the time-out.
    func readLine() -> String? {
        while true {
            if let lf = buffer.firstIndex(of: 10) {
                var line = Array(buffer[0..<lf])
                buffer.removeFirst(lf + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { raw in
                ssl.map { Int(SSL_read($0, raw.baseAddress, Int32(raw.count))) } ?? recv(fd, raw.baseAddress, raw.count, 0)
            }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Ends TLS with close_notify, as a well-behaved server does before closing.
    func shutdown() {
        if let ssl { _ = SSL_shutdown(ssl) }
    }
}
