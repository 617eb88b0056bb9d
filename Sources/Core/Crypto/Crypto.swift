import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hashes, MACs, random bytes and constant-time comparison from OpenSSL's libcrypto.
///
/// Digests go through `EVP_Digest` and MACs through the one-shot `HMAC()`, the OpenSSL 3 interfaces
/// (the low-level `SHA256()`/`MD5()` family is deprecated there).
public enum Crypto {
    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: [UInt8]) -> [UInt8] { digest(data, fetchedSHA256 ?? EVP_sha256(), length: 32) }

    /// SHA-256 fetched from the default provider once. `EVP_sha256()` names the algorithm only, so every
    /// `EVP_Digest` with it looks the implementation up again (OpenSSL 3's implicit fetch, under a lock),
    /// which cost more than hashing a token; a fetched `EVP_MD` is immutable and safe to share between
    /// threads. Nil (then the implicit fetch is used) only if the provider cannot be loaded.
    nonisolated(unsafe) static let fetchedSHA256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// SHA-1 of `data` (20 bytes). For protocols that require it (ETags, legacy signatures), not for secrets.
    public static func sha1(_ data: [UInt8]) -> [UInt8] { digest(data, EVP_sha1(), length: 20) }

    /// MD5 of `data` (16 bytes). For protocols that require it (Couch revision ids and attachment
    /// digests), not for secrets.
    public static func md5(_ data: [UInt8]) -> [UInt8] { digest(data, fetchedMD5 ?? EVP_md5(), length: 16) }

    /// MD5 fetched once, for the reason given at `fetchedSHA256`: every interactive Couch write hashes
    /// its revision term, so the per-call implicit fetch would be paid on the write path.
    nonisolated(unsafe) static let fetchedMD5: OpaquePointer? = EVP_MD_fetch(nil, "MD5", nil)

    /// HMAC-SHA256 of `data` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] { hmac(EVP_sha256(), key: key, data: data, length: 32) }

    /// HMAC-SHA1 of `data` under `key` (20 bytes).
    public static func hmacSHA1(key: [UInt8], data: [UInt8]) -> [UInt8] { hmac(EVP_sha1(), key: key, data: data, length: 20) }

    /// `count` bytes from OpenSSL's CSPRNG (`RAND_bytes`); a non-positive count gives no bytes.
    ///
    /// Should `RAND_bytes` ever fail (its entropy source unavailable), the bytes are read from
    /// `/dev/urandom` instead. If that fails too the process stops with a fatal error: every caller
    /// uses these bytes for secrets (tokens, salts, ids), and continuing with predictable ones would be
    /// worse than stopping.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            // RAND_bytes takes an Int32 length: fill in chunks so any count works.
            var offset = 0
            while offset < buffer.count {
                let chunk = min(buffer.count - offset, 1 << 30)
                guard RAND_bytes(base + offset, Int32(chunk)) == 1 else { return false }
                offset += chunk
            }
            return true
        }
        if ok { return bytes }
        if readURandom(into: &bytes) { return bytes }
        fatalError("no source of secure random bytes: RAND_bytes and /dev/urandom both failed")
    }

    /// True when `a` and `b` hold the same bytes. The time taken depends only on the lengths, never on
    /// where the contents differ (`CRYPTO_memcmp`), so it is safe for comparing secrets.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                guard let x = pa.baseAddress, let y = pb.baseAddress else { return false }
                return CRYPTO_memcmp(x, y, a.count) == 0
            }
        }
    }

    /// `constantTimeEquals` over raw memory (for MACs held in temporary buffers).
    public static func constantTimeEquals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.isEmpty }
        return CRYPTO_memcmp(x, y, a.count) == 0
    }

    // MARK: - OpenSSL calls

    private static func digest(_ data: [UInt8], _ md: OpaquePointer?, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written: UInt32 = 0
        let ok = withNonNullBytes(data) { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input, data.count, output.baseAddress, &written, md, nil) == 1
            }
        }
        // EVP_Digest fails only on allocation failure or a missing algorithm; the lengths are fixed by
        // the algorithm, so a failure cannot be confused with a real digest of the right length.
        guard ok, Int(written) == length else { fatalError("OpenSSL digest failed") }
        return Array(out.prefix(length))
    }

    private static func hmac(_ md: OpaquePointer?, key: [UInt8], data: [UInt8], length: Int) -> [UInt8] {
        // HMAC() takes an Int32 key length. A key longer than the hash's block size is replaced by its
        // digest by HMAC itself (RFC 2104), so hashing an oversized key first gives the same MAC.
        let key = key.count > Int(Int32.max) ? digest(key, md, length: length) : key
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written: UInt32 = 0
        let result = withNonNullBytes(key) { keyPointer in
            withNonNullBytes(data) { dataPointer in
                out.withUnsafeMutableBufferPointer { output in
                    HMAC(md, keyPointer, Int32(key.count), dataPointer.assumingMemoryBound(to: UInt8.self),
                         data.count, output.baseAddress, &written)
                }
            }
        }
        guard result != nil, Int(written) == length else { fatalError("OpenSSL HMAC failed") }
        return Array(out.prefix(length))
    }

    /// Calls `body` with a pointer that is never NULL, even for empty input: some OpenSSL entry points
    /// treat a NULL key as "reuse the previous key" rather than as an empty one.
    private static func withNonNullBytes<R>(_ bytes: [UInt8], _ body: (UnsafeRawPointer) -> R) -> R {
        if bytes.isEmpty {
            var placeholder: UInt8 = 0
            return withUnsafePointer(to: &placeholder) { body(UnsafeRawPointer($0)) }
        }
        return bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else {
                var placeholder: UInt8 = 0
                return withUnsafePointer(to: &placeholder) { body(UnsafeRawPointer($0)) }
            }
            return body(base)
        }
    }

    /// Fills `bytes` from /dev/urandom; false if it cannot be opened or read in full.
    private static func readURandom(into bytes: inout [UInt8]) -> Bool {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count {
                let n = read(fd, base + offset, buffer.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
