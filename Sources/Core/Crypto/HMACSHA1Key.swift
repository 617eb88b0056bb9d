import COpenSSL

/// An HMAC-SHA1 key (RFC 2104) held as the two SHA-1 states it determines: the state after the inner
/// padded key (`key ⊕ 0x36…`) and the state after the outer one (`key ⊕ 0x5c…`), both computed once.
///
/// A message then costs one copy of each 96-byte state (plain values on the stack), the message's own
/// compression rounds and the two finals: no OpenSSL context is allocated, duplicated or freed per
/// message, which is what `HMACKey` (an `EVP_MAC_CTX` duplicated per call) spends about 40% of its time
/// on for short messages. The states are never changed after `init`, so any number of threads may
/// authenticate with one key at once. Every key is accepted, the empty one included (it pads to zeros
/// as RFC 2104 says, which is what `Crypto.hmacSHA1` computes for it).
///
/// OpenSSL 3 keeps `SHA1_Init`/`SHA1_Update`/`SHA1_Final` (deprecated in favour of EVP, whose digest
/// contexts cannot be copied without allocating); they are the same implementation EVP's SHA-1 calls.
public struct HMACSHA1Key: @unchecked Sendable {
    // @unchecked: `SHA_CTX` is a C struct of integers, copied by value and never mutated once stored.
    private let inner: SHA_CTX
    private let outer: SHA_CTX

    /// The MAC length in bytes.
    public static let length = 20
    /// SHA-1's block size, to which the key is padded.
    static let blockSize = 64

    /// Prepares `key`; a key longer than a block is replaced by its SHA-1 digest first (RFC 2104 §2).
    public init(key: [UInt8]) {
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        if key.count > Self.blockSize {
            let digest = Crypto.sha1(key)
            block.replaceSubrange(0..<digest.count, with: digest)
        } else {
            block.replaceSubrange(0..<key.count, with: key)
        }
        inner = Self.state(after: block.map { $0 ^ 0x36 })
        outer = Self.state(after: block.map { $0 ^ 0x5c })
    }

    private static func state(after padded: [UInt8]) -> SHA_CTX {
        var context = SHA_CTX()
        // SHA1_Init and SHA1_Update over memory cannot fail (they return 1 unconditionally).
        _ = SHA1_Init(&context)
        padded.withUnsafeBytes { bytes in _ = SHA1_Update(&context, bytes.baseAddress, bytes.count) }
        return context
    }

    /// Calls `body` with the 20-byte MAC of `message`, held in temporary stack memory that is only valid
    /// during the call.
    public func withAuthenticationCode<R>(of message: UnsafeRawBufferPointer,
                                          _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * Self.length) { buffer in
            // First half: the inner hash; second half: the MAC (the outer hash over the inner one).
            guard let base = buffer.baseAddress else { preconditionFailure("temporary allocation without memory") }
            let innerDigest = base
            let mac = base + Self.length
            var context = inner
            if let start = message.baseAddress, message.count > 0 { _ = SHA1_Update(&context, start, message.count) }
            _ = SHA1_Final(innerDigest, &context)
            context = outer
            _ = SHA1_Update(&context, innerDigest, Self.length)
            _ = SHA1_Final(mac, &context)
            return try body(UnsafeRawBufferPointer(start: mac, count: Self.length))
        }
    }

    /// The MAC of `message` as a new array.
    public func authenticate(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { bytes in withAuthenticationCode(of: bytes) { Array($0) } }
    }
}
