/// Hard errors of the Datastore API, rendered as `{"error": "<message>"}` with their status.
public enum DatastoreAPIError: Error, Sendable, Equatable {
    /// 400: malformed or invalid parameters, invalid change, size breach, rule violation.
    case badRequest(String)
    /// 401 with `WWW-Authenticate: Bearer realm="datastore"`.
    case unauthorized(String)
    /// 401 for the admin endpoints (no `WWW-Authenticate` challenge for datastore tokens).
    case adminUnauthorized
    /// 429 with `Retry-After` for the admin endpoints: the client address sent too many wrong passwords.
    case adminRateLimited(retryAfterSeconds: Int)
    /// 404 for a path under the API's prefixes that names no endpoint.
    case unknownEndpoint(String)
    /// 405 with `Allow: GET, POST, OPTIONS`.
    case methodNotAllowed
    /// 413.
    case payloadTooLarge
    /// 503: transient; clients retry.
    case unavailable(String)

    /// The messages §4.1 fixes.
    static let missingToken = DatastoreAPIError.unauthorized("Missing access token")
    static let invalidToken = DatastoreAPIError.unauthorized("Invalid access token")
}
