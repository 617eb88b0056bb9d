import Core

/// The secret of a key pair, ready to sign with: the HMAC key is prepared once per key pair (not per
/// request), which is most of what a signature check would otherwise cost.
public struct SigningSecret: Sendable {
    /// The secret as configured.
    public let secret: String
    /// The prepared HMAC-SHA1 key; nil only for an empty secret, which then signs through the one-shot HMAC.
    private let prepared: HMACKey?

    /// Prepares `secret`.
    public init(_ secret: String) {
        self.secret = secret
        prepared = HMACKey(sha1: Array(secret.utf8))
    }

    /// `Base64(HMAC-SHA1(secret, canonical))`, as `CanonicalString.signature(secret:canonical:)`.
    public func signature(canonical: [UInt8]) -> String {
        guard let prepared else { return CanonicalString.signature(secret: secret, canonical: canonical) }
        return Base64.encode(prepared.authenticate(canonical))
    }
}
