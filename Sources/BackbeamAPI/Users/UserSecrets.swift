import Core
import Auth

/// Session codes and verification/reset codes (§3.7, §5.4.5): 32 bytes from the CSPRNG as 64 lowercase hex
/// characters, of which only the SHA-256 is stored, so a copy of the database opens no session and redeems
/// no code.
enum UserSecrets {
    /// How long a verification code works: 7 days.
    static let verificationLifetimeMs: Int64 = 7 * 86_400_000
    /// How long a reset code works: 24 hours.
    static let resetLifetimeMs: Int64 = 86_400_000

    /// A new code and its stored hash.
    static func make() -> (code: String, hash: String) {
        let code = RandomID.hex(32)
        return (code, TokenHasher.hash(code))
    }

    /// The stored form of a code or session code presented by a client.
    static func hash(_ code: String) -> String { TokenHasher.hash(code) }

    /// A code of `kind` issued now, with its lifetime.
    static func issue(_ kind: CodeKind, now: Int64) -> (code: String, issued: IssuedCode) {
        let (code, hash) = make()
        let lifetime = kind == .verification ? verificationLifetimeMs : resetLifetimeMs
        return (code, IssuedCode(hash: hash, kind: kind, expiresAt: now &+ lifetime))
    }
}
