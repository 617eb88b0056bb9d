import COpenSSL

extension Crypto {
    /// SHA-256 of a message fed in pieces (OpenSSL's `EVP_DigestInit_ex`/`Update`/`Final_ex`), for
    /// content hashed while it streams, such as a blob copied to disk chunk by chunk. The digest equals
    /// `Crypto.sha256` of the pieces joined.
    ///
    /// Noncopyable: it owns an OpenSSL digest context, freed when the value ends; `finalize` consumes it.
    public struct SHA256Stream: ~Copyable {
        private let context: OpaquePointer

        /// A digest of the empty message so far.
        public init() {
            // Allocation failure or a missing algorithm only; a wrong digest would be worse than stopping.
            guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL digest context allocation failed") }
            guard EVP_DigestInit_ex(context, Crypto.fetchedSHA256 ?? EVP_sha256(), nil) == 1 else {
                EVP_MD_CTX_free(context)
                fatalError("OpenSSL digest failed")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Feeds the next bytes of the message.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            Self.feed(context, bytes)
        }

        /// Feeds the next bytes of the message.
        public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            let context = context
            let fed: Void? = bytes.withContiguousStorageIfAvailable { Self.feed(context, UnsafeRawBufferPointer($0)) }
            if fed == nil { Array(bytes).withUnsafeBytes { Self.feed(context, $0) } }
        }

        private static func feed(_ context: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("OpenSSL digest failed") }
        }

        /// The 32-byte digest of everything fed.
        public consuming func finalize() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            var written: UInt32 = 0
            let ok = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &written) == 1 }
            guard ok, written == 32 else { fatalError("OpenSSL digest failed") }
            return out
        }
    }
}
