/// The outcome of checking server-admin credentials.
public enum AdminVerdict: Sendable, Equatable {
    /// The credentials are the server admin's.
    case ok
    /// Missing, malformed or wrong credentials (APIs answer 401).
    case wrong
    /// The client address sent too many wrong passwords; nothing was checked. APIs answer 429 with
    /// `Retry-After: retryAfterSeconds`.
    case rateLimited(retryAfterSeconds: Int)
}
