import Auth
import HTTP

/// Who may read `/metrics`: clients whose address is in `server.metricsAllowFrom` (loopback by default,
/// 127.0.0.0/8 and ::1), and anyone with the server admin's HTTP Basic credentials. The counters tell how
/// busy each API is, which routes fail and how large the database grows: not for everyone who can reach
/// the port.
///
/// The address is the connection's peer. Behind a reverse proxy on the same host every request comes from
/// loopback, so there the list should be empty (admin only) or the proxy should not forward `/metrics`.
struct MetricsAccess: Sendable {
    let allowFrom: [IPRange]
    let admin: ServerAdmin

    /// Nil when `request` may read the metrics; otherwise the refusal in the admin API's JSON format: 401 with
    /// `WWW-Authenticate` when it sent no credentials, 403 when they are wrong, 429 for an address that sent
    /// too many wrong ones (the failed-login limit is the admin API's own).
    func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        if IPRange.any(allowFrom, contains: request.remoteAddress) { return nil }
        guard let authorization = request.headers["Authorization"] else { return AdminWire.unauthorized() }
        switch admin.verify(authorization: authorization, clientAddress: request.remoteAddress) {
        case .ok: return nil
        case .wrong: return AdminWire.error(.forbidden, "server admin credentials required")
        case .rateLimited(let seconds): return AdminWire.tooManyFailedLogins(retryAfterSeconds: seconds)
        }
    }
}
