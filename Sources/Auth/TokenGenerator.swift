import Core

/// Fresh bearer tokens from the CSPRNG.
public enum TokenGenerator {
    /// URL-safe Base64 (no padding) of `bytes` random bytes; 24 bytes (192 bits) give 32 characters.
    /// Safe in URLs, headers and cookies without escaping. Counts below 16 are raised to 16 bytes
    /// (128 bits), so a misconfigured length never yields a guessable token.
    public static func token(bytes: Int = 24) -> String {
        Base64.encodeURLSafe(Crypto.randomBytes(max(bytes, 16)), padded: false)
    }
}
