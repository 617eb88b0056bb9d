import COpenSSL

extension Crypto {
    /// MD5 of a message fed in pieces, for attachment digests (Couch `md5-…`) of bodies that are read from
    /// a spooled file chunk by chunk. The digest equals `Crypto.md5` of the pieces joined.
    ///
    /// Noncopyable: it owns an OpenSSL digest context, freed when the value ends; `finalize` consumes it.
    public struct MD5Stream: ~Copyable {
        private let context: OpaquePointer

        /// A digest of the empty message so far.
        public init() {
            // Allocation failure or a missing algorithm only; a wrong digest would be worse than stopping.
            guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL digest context allocation failed") }
            guard EVP_DigestInit_ex(context, Crypto.fetchedMD5 ?? EVP_md5(), nil) == 1 else {
                EVP_MD_CTX_free(context)
                fatalError("OpenSSL digest failed")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Feeds the next bytes of the message.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("OpenSSL digest failed") }
        }

        /// The 16-byte digest of everything fed.
        public consuming func finalize() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 16)
            var written: UInt32 = 0
            let ok = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &written) == 1 }
            guard ok, written == 16 else { fatalError("OpenSSL digest failed") }
            return out
        }
    }
}
