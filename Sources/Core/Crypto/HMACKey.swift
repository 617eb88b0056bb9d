import COpenSSL

/// An HMAC key prepared once and used for many messages.
///
/// `Crypto.hmacSHA1` goes through OpenSSL 3's one-shot `HMAC()`, which looks the MAC and digest
/// implementations up and sets the key up again on every call; that was most of the cost of checking a
/// signed request. Here the implementations are fetched once per process and the key is absorbed once
/// (an `EVP_MAC_CTX` holding the inner and outer padded states); each message then works on a duplicate
/// of that context, so concurrent callers never share mutable state.
public final class HMACKey: @unchecked Sendable {
    /// The keyed context; never changed after `init`, only duplicated.
    private let context: OpaquePointer
    /// The MAC length in bytes.
    public let length: Int

    /// The HMAC implementation, fetched once (immutable, shareable between threads).
    nonisolated(unsafe) private static let mac: OpaquePointer? = EVP_MAC_fetch(nil, "HMAC", nil)

    /// An HMAC-SHA1 key (20-byte MACs); nil for an empty key (OpenSSL refuses to set one up this way; use
    /// `Crypto.hmacSHA1`) or if OpenSSL cannot provide HMAC-SHA1.
    public convenience init?(sha1 key: [UInt8]) {
        self.init(key: key, digest: "SHA1", length: 20)
    }

    private init?(key: [UInt8], digest: String, length: Int) {
        guard !key.isEmpty, let mac = Self.mac, let context = EVP_MAC_CTX_new(mac) else { return nil }
        // OSSL_PARAM keeps the parameter's name and value by pointer until EVP_MAC_init reads them, so both
        // C strings must outlive that call: a literal passed straight to the constructor would be a
        // temporary freed when the constructor returns (AddressSanitizer caught the read of it).
        let ok = "digest".withCString { parameterName in
            digest.withCString { name -> Bool in
                var params: [OSSL_PARAM] = [
                    OSSL_PARAM_construct_utf8_string(parameterName, UnsafeMutablePointer(mutating: name), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return key.withUnsafeBufferPointer { keyPointer in
                    EVP_MAC_init(context, keyPointer.baseAddress, key.count, &params) == 1
                }
            }
        }
        guard ok else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        self.context = context
        self.length = length
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// The MAC of `data`.
    public func authenticate(_ data: [UInt8]) -> [UInt8] {
        guard let working = EVP_MAC_CTX_dup(context) else { fatalError("OpenSSL could not copy an HMAC context") }
        defer { EVP_MAC_CTX_free(working) }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written = 0
        let ok = data.withUnsafeBufferPointer { input -> Bool in
            let updated = input.isEmpty || EVP_MAC_update(working, input.baseAddress, input.count) == 1
            return updated && out.withUnsafeMutableBufferPointer { output in
                EVP_MAC_final(working, output.baseAddress, &written, output.count) == 1
            }
        }
        guard ok, written == length else { fatalError("OpenSSL HMAC failed") }
        return Array(out.prefix(length))
    }
}
