import COpenSSL
import Glibc

/// Bytes in and out of an outbound connection, waiting at most until a deadline.
protocol OutboundTransport {
    /// Sends every byte.
    func writeAll(_ bytes: [UInt8], deadline: Double) throws
    /// Reads into `buffer`; 0 at the end of the stream.
    func read(_ buffer: inout [UInt8], deadline: Double) throws -> Int
}

/// A plain TCP connection (non-blocking socket, polled).
struct PlainTransport: OutboundTransport {
    let fd: Int32

    func writeAll(_ bytes: [UInt8], deadline: Double) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { sent += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try OutboundHTTP.wait(fd, writable: true, deadline: deadline)
                continue
            }
            throw OutboundHTTPError.connectionFailed("send failed")
        }
    }

    func read(_ buffer: inout [UInt8], deadline: Double) throws -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return n }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try OutboundHTTP.wait(fd, writable: false, deadline: deadline)
                continue
            }
            throw OutboundHTTPError.connectionFailed("recv failed")
        }
    }
}

/// A TLS client session over a connected socket: the shared context of `OutboundTLS` (the system trust
/// store plus `server.outboundCaFile`), the certificate checked against the host (a DNS name, or an IP
/// address against the certificate's IP addresses), SNI for a DNS name, TLS 1.2 at least.
final class TLSClientTransport: OutboundTransport {
    private let context: OutboundTLSContext
    private let ssl: OpaquePointer
    private let fd: Int32

    init(fd: Int32, host: String) throws {
        self.fd = fd
        context = try OutboundTLS.context()
        guard let ssl = SSL_new(context.pointer) else {
            throw OutboundHTTPError.connectionFailed("cannot create a TLS session")
        }
        self.ssl = ssl
        // Set on the session too: SSL_new copied the context's settings, and this floor must hold whatever
        // the context says. SSL_set_min_proto_version is a macro over SSL_ctrl.
        _ = SSL_ctrl(ssl, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
        guard let param = SSL_get0_param(ssl) else {
            throw OutboundHTTPError.connectionFailed("cannot configure the TLS session")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if Self.isIPAddress(bare) {
            // An address is matched against the certificate's IP addresses (a DNS-name check would look for
            // "127.0.0.1" among its DNS names), and is never sent as SNI (RFC 6066 §3).
            guard X509_VERIFY_PARAM_set1_ip_asc(param, bare) == 1 else {
                throw OutboundHTTPError.connectionFailed("cannot configure the TLS session")
            }
        } else {
            // SSL_set_tlsext_host_name is a macro over SSL_ctrl.
            _ = host.withCString {
                SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: $0))
            }
            guard SSL_set1_host(ssl, host) == 1 else { throw OutboundHTTPError.connectionFailed("cannot configure the TLS session") }
        }
        guard SSL_set_fd(ssl, fd) == 1 else { throw OutboundHTTPError.connectionFailed("cannot configure the TLS session") }
        SSL_set_connect_state(ssl)
    }

    deinit {
        SSL_free(ssl)
    }

    /// The session's lowest accepted protocol version (`TLS1_2_VERSION`).
    var minimumProtocolVersion: Int {
        SSL_ctrl(ssl, SSL_CTRL_GET_MIN_PROTO_VERSION, 0, nil)
    }

    /// An IPv4 or IPv6 address literal (not a name).
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Waits for what OpenSSL asked for after a call returned `result`; throws on a real failure.
    private func settle(_ result: Int32, deadline: Double) throws -> Bool {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: try OutboundHTTP.wait(fd, writable: false, deadline: deadline); return true
        case SSL_ERROR_WANT_WRITE: try OutboundHTTP.wait(fd, writable: true, deadline: deadline); return true
        case SSL_ERROR_ZERO_RETURN: return false
        default:
            let verify = SSL_get_verify_result(ssl)
            guard verify == Int(X509_V_OK) else {
                // OpenSSL's reason ("unable to get local issuer certificate", "hostname mismatch") tells the
                // operator whether a CA is missing or the name is wrong.
                let reason = X509_verify_cert_error_string(verify).map { String(cString: $0) } ?? "error \(verify)"
                throw OutboundHTTPError.connectionFailed("TLS certificate not trusted: \(reason)")
            }
            throw OutboundHTTPError.connectionFailed("TLS failure")
        }
    }

    func writeAll(_ bytes: [UInt8], deadline: Double) throws {
        var sent = 0
        while sent < bytes.count {
            ERR_clear_error()
            let n = bytes.withUnsafeBytes { raw in
                SSL_write(ssl, raw.baseAddress.map { $0 + sent }, Int32(clamping: bytes.count - sent))
            }
            if n > 0 { sent += Int(n); continue }
            guard try settle(n, deadline: deadline) else { throw OutboundHTTPError.connectionFailed("TLS closed") }
        }
    }

    func read(_ buffer: inout [UInt8], deadline: Double) throws -> Int {
        while true {
            ERR_clear_error()
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32(clamping: $0.count)) }
            if n > 0 { return Int(n) }
            // A peer that closes without close_notify ends the stream too (SSL_OP_IGNORE_UNEXPECTED_EOF on
            // the context makes it SSL_ERROR_ZERO_RETURN; see OutboundTLSContext).
            guard try settle(n, deadline: deadline) else { return 0 }
        }
    }
}
