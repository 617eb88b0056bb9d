import COpenSSL
import Glibc

/// The server's OpenSSL context: certificate chain and private key, TLS 1.2 minimum.
final class TLSContext: @unchecked Sendable {
    // SSL_CTX is safe to share once configured: sessions are created from it on the I/O threads.
    let context: OpaquePointer

    init(certificatePath: String, privateKeyPath: String) throws(ServerStartError) {
        guard let method = TLS_server_method(), let context = SSL_CTX_new(method) else {
            throw .tls("cannot create SSL context: \(TLSContext.lastError())")
        }
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            SSL_CTX_free(context)
            throw .tls("cannot load certificate \(certificatePath): \(TLSContext.lastError())")
        }
        guard SSL_CTX_use_PrivateKey_file(context, privateKeyPath, SSL_FILETYPE_PEM) == 1,
              SSL_CTX_check_private_key(context) == 1 else {
            SSL_CTX_free(context)
            throw .tls("cannot load private key \(privateKeyPath): \(TLSContext.lastError())")
        }
        // SSL_CTX_set_min_proto_version and SSL_CTX_set_mode are macros over SSL_CTX_ctrl.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // Partial writes and moving buffers: the connection retries writes from a buffer that may have been
        // reallocated, and wants to know how much went out.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE,
                         Int(SSL_MODE_ENABLE_PARTIAL_WRITE) | Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        self.context = context
    }

    deinit { SSL_CTX_free(context) }

    /// The oldest error on this thread's OpenSSL error queue, as text.
    static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One connection's TLS state; the handshake happens implicitly inside the first reads and writes.
/// Confined to the connection's event loop.
final class TLSSession {
    private var ssl: OpaquePointer?
    /// The last read needed to write (handshake data stuck behind a full socket); retry it when writable.
    private(set) var wantsWriteToRead = false

    init?(context: TLSContext, fd: Int32) {
        guard let ssl = SSL_new(context.context) else { return nil }
        guard SSL_set_fd(ssl, fd) == 1 else {
            SSL_free(ssl)
            return nil
        }
        SSL_set_accept_state(ssl)
        self.ssl = ssl
    }

    deinit { free() }

    func read(_ buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        guard let ssl, let base = buffer.baseAddress else { return .failed }
        ERR_clear_error()
        wantsWriteToRead = false
        let count = SSL_read(ssl, base, Int32(clamping: buffer.count))
        if count > 0 { return .data(Int(count)) }
        return outcome(SSL_get_error(ssl, count), reading: true)
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> TransportResult {
        guard let ssl, let base = buffer.baseAddress else { return buffer.isEmpty ? .data(0) : .failed }
        ERR_clear_error()
        let count = SSL_write(ssl, base, Int32(clamping: buffer.count))
        if count > 0 { return .data(Int(count)) }
        return outcome(SSL_get_error(ssl, count), reading: false)
    }

    private func outcome(_ code: Int32, reading: Bool) -> TransportResult {
        switch code {
        case SSL_ERROR_WANT_READ:
            return .wouldBlock
        case SSL_ERROR_WANT_WRITE:
            if reading { wantsWriteToRead = true }
            return .wouldBlock
        case SSL_ERROR_ZERO_RETURN:
            return .endOfStream
        case SSL_ERROR_SYSCALL:
            return errno == 0 ? .endOfStream : .failed
        default:
            return .failed
        }
    }

    /// Sends close_notify (best effort: the socket is non-blocking and about to close) and releases the
    /// session; the connection closes the socket.
    func free() {
        if let ssl {
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            SSL_free(ssl)
        }
        ssl = nil
    }
}
