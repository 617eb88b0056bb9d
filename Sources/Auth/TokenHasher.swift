import Core

/// Hashes bearer tokens (session tokens, API tokens) for storage, so a copy of the database does not
/// hand out working credentials. Tokens are long random strings, so a fast unsalted SHA-256 is enough:
/// there is nothing to brute-force the way there is with passwords.
public enum TokenHasher {
    /// Lowercase hex SHA-256 of the token's UTF-8 bytes (64 characters).
    public static func hash(_ token: String) -> String {
        Hex.encode(Crypto.sha256(Array(token.utf8)))
    }
}
