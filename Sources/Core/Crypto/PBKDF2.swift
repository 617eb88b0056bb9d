import COpenSSL

extension Crypto {
    /// The pseudo-random functions PBKDF2 can run over.
    public enum PBKDF2Hash: Sendable, Equatable {
        case sha1, sha256, sha512

        /// The digest's output length in bytes.
        public var length: Int {
            switch self {
            case .sha1: return 20
            case .sha256: return 32
            case .sha512: return 64
            }
        }

        var md: OpaquePointer? {
            switch self {
            case .sha1: return EVP_sha1()
            case .sha256: return EVP_sha256()
            case .sha512: return EVP_sha512()
            }
        }
    }

    /// PBKDF2-HMAC (RFC 8018) of `password` and `salt` with `iterations` rounds, `keyLength` bytes of
    /// output, through OpenSSL's `PKCS5_PBKDF2_HMAC`. Nil when the parameters are out of range (iterations
    /// or key length not positive or beyond `Int32`), never a trap: callers pass values read from stored
    /// or replicated documents.
    public static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int,
                              hash: PBKDF2Hash) -> [UInt8]? {
        guard iterations > 0, iterations <= Int(Int32.max), keyLength > 0, keyLength <= 1 << 16,
              password.count <= Int(Int32.max), salt.count <= Int(Int32.max) else { return nil }
        var out = [UInt8](repeating: 0, count: keyLength)
        // Empty arrays may have no base address; OpenSSL reads nothing for a zero length but wants a pointer.
        let empty: [UInt8] = [0]
        let pass = password.isEmpty ? empty : password
        let saltBytes = salt.isEmpty ? empty : salt
        let ok = pass.withUnsafeBufferPointer { p in
            saltBytes.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    p.withMemoryRebound(to: CChar.self) { pc in
                        PKCS5_PBKDF2_HMAC(pc.baseAddress, Int32(password.count), s.baseAddress, Int32(salt.count),
                                          Int32(iterations), hash.md, Int32(keyLength), o.baseAddress)
                    }
                }
            }
        }
        return ok == 1 ? out : nil
    }
}
