import Core

/// The secret of a key pair, ready to sign with: the HMAC key's inner and outer SHA-1 states are computed
/// once per key pair (when the project's keys load), so a request costs only its message's hashing.
/// A class: a request looks it up and passes it along by reference, not as a copy of both states.
public final class SigningSecret: Sendable {
    /// The secret as configured.
    public let secret: String
    /// The prepared HMAC-SHA1 key (every secret, the empty one included).
    private let prepared: HMACSHA1Key

    /// The length of a signature's text: Base64 of the 20-byte MAC, padded.
    static let signatureLength = 28

    /// Prepares `secret`.
    public init(_ secret: String) {
        self.secret = secret
        prepared = HMACSHA1Key(key: Array(secret.utf8))
    }

    /// `Base64(HMAC-SHA1(secret, canonical))`, as `CanonicalString.signature(secret:canonical:)`.
    public func signature(canonical: [UInt8]) -> String {
        Base64.encode(prepared.authenticate(canonical))
    }

    /// True when `given` is the signature of `canonical`: the MAC and its Base64 text are made in
    /// temporary memory and compared in constant time (timing reveals nothing about how much of a forged
    /// signature was right).
    func matches(_ given: UnsafeRawBufferPointer, canonical: UnsafeRawBufferPointer) -> Bool {
        prepared.withAuthenticationCode(of: canonical) { mac in
            withUnsafeTemporaryAllocation(byteCount: Self.signatureLength, alignment: 1) { text in
                guard let written = Base64.encode(mac, into: text) else { return false }
                return Crypto.constantTimeEquals(given, UnsafeRawBufferPointer(rebasing: text[0..<written]))
            }
        }
    }
}
