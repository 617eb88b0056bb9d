import Foundation
import HTTP

/// CORS as spec §2.9 describes it (CouchDB's `chttpd_cors` lists): off unless origins are configured.
struct CouchCORS: Sendable {
    let origins: [String]
    let credentials: Bool

    static let allowedMethods = "GET, HEAD, POST, PUT, DELETE, COPY, OPTIONS"
    static let allowedHeaders: Set<String> = [
        "accept", "accept-language", "authorization", "content-length", "content-range", "content-type",
        "destination", "if-match", "if-none-match", "origin", "pragma", "x-couch-full-commit",
        "x-http-method-override", "x-requested-with",
    ]
    static let exposedHeaders = "cache-control, content-type, content-length, accept-ranges, etag, server, location, "
        + "x-couch-request-id, x-couchdb-body-time"

    /// Whether CORS is on.
    var isEnabled: Bool { !origins.isEmpty }

    /// `Access-Control-Allow-Origin` for `origin`: `*` when any origin is configured, the origin itself
    /// when it is listed, nil otherwise.
    func allowOrigin(_ origin: String?) -> String? {
        guard let origin, isEnabled else { return nil }
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// The answer to a preflight `OPTIONS`: 200 with an empty body, with the CORS headers only for a listed
    /// origin.
    func preflight(origin: String?, requestedHeaders: String?) -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        guard let allow = allowOrigin(origin) else { return response }
        response.headers.add("Access-Control-Allow-Origin", allow)
        if credentials, allow != "*" { response.headers.add("Access-Control-Allow-Credentials", "true") }
        response.headers.add("Access-Control-Allow-Methods", Self.allowedMethods)
        let asked = (requestedHeaders ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let allowed = asked.filter { Self.allowedHeaders.contains($0) }
        if !allowed.isEmpty { response.headers.add("Access-Control-Allow-Headers", allowed.joined(separator: ", ")) }
        response.headers.add("Access-Control-Max-Age", "600")
        return response
    }

    /// Adds the headers of an actual cross-origin response.
    func decorate(_ response: inout HTTPResponse, origin: String?) {
        guard let allow = allowOrigin(origin) else { return }
        response.headers.add("Access-Control-Allow-Origin", allow)
        response.headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
        if credentials, allow != "*" { response.headers.add("Access-Control-Allow-Credentials", "true") }
    }
}
