import COpenSSL
import Core

/// What outbound TLS connections (SMTP relays, social providers) trust, for the whole process: the system
/// trust store (OpenSSL's default verify paths, which honour `SSL_CERT_FILE` and `SSL_CERT_DIR`) plus, when
/// configured, the CA certificates of one more PEM file (`server.outboundCaFile`: the private CA of an
/// internal relay or provider). Trust is added, never loosened: every peer is still verified against its
/// host name, and nothing here turns verification off.
public enum OutboundTLS {
    /// The client context in use; built on first use when `trust(additionalCAFile:)` was never called.
    private static let current = Locked<OutboundTLSContext?>(nil)

    /// Trusts the CA certificates of the PEM file at `path` besides the system's (nil: the system's only).
    /// Throws `OutboundHTTPError.connectionFailed` naming the file when it cannot be read or holds no
    /// certificate, so a wrong path stops start-up instead of failing every delivery later.
    public static func trust(additionalCAFile path: String?) throws {
        let context = try OutboundTLSContext(additionalCAFile: path)
        current.withLock { $0 = context }
    }

    /// The shared client context. Building one reads the whole system bundle, so it is built once, not per
    /// connection.
    static func context() throws -> OutboundTLSContext {
        try current.withLock { context in
            if let context { return context }
            let made = try OutboundTLSContext(additionalCAFile: nil)
            context = made
            return made
        }
    }
}

/// An OpenSSL client context: the trust store, TLS 1.2 at least, peers verified.
final class OutboundTLSContext: @unchecked Sendable {
    // SSL_CTX is safe to share once configured: each connection makes its own SSL from it, and an SSL holds
    // a reference to its context, so replacing the shared context never frees one still in use.
    let pointer: OpaquePointer

    init(additionalCAFile: String?) throws {
        guard let method = TLS_client_method(), let context = SSL_CTX_new(method) else {
            throw OutboundHTTPError.connectionFailed("cannot create a TLS context")
        }
        guard SSL_CTX_set_default_verify_paths(context) == 1 else {
            SSL_CTX_free(context)
            throw OutboundHTTPError.connectionFailed("cannot load the system trust store")
        }
        if let additionalCAFile {
            // Fails on a missing file and on one without a single PEM certificate.
            guard SSL_CTX_load_verify_locations(context, additionalCAFile, nil) == 1 else {
                ERR_clear_error()
                SSL_CTX_free(context)
                throw OutboundHTTPError.connectionFailed("cannot load CA certificates from \(additionalCAFile)")
            }
        }
        // SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // SSL_OP_IGNORE_UNEXPECTED_EOF (bit 7; the macro is not imported): OpenSSL 3 reports a peer that
        // closes without close_notify as an error, but servers commonly do so after `Connection: close`.
        // The end of the stream then reads as an ordinary end, and truncation is caught by the framing: the
        // HTTP parser refuses a body shorter than its Content-Length or chunks without their last one, and
        // an SMTP reply cut short is no reply.
        _ = SSL_CTX_set_options(context, UInt64(1) << 7)
        pointer = context
    }

    deinit { SSL_CTX_free(pointer) }
}
