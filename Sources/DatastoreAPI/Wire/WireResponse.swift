import Core
import HTTP

/// Builds every HTTP response of the API: exactly `Content-Type: application/json`, `Cache-Control: no-store`
/// (browsers must not cache sync state) and `Access-Control-Allow-Origin: *` (bearer tokens, never cookies).
enum WireResponse {
    /// The methods every datastore path allows.
    static let allow = "GET, POST, OPTIONS"

    /// A JSON body with the API's headers.
    static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/json")
        headers.set("Cache-Control", "no-store")
        headers.set("Access-Control-Allow-Origin", "*")
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A JSON body written by `build`.
    static func object(status: HTTPStatus = .ok, _ build: (inout JSONWriter) -> Void) -> HTTPResponse {
        var w = JSONWriter()
        build(&w)
        return json(w.bytes, status: status)
    }

    /// `{"<key>": "<message>"}` (the soft outcomes and `ok`).
    static func single(_ key: String, _ message: String, status: HTTPStatus = .ok) -> HTTPResponse {
        object(status: status) { w in
            w.raw("{")
            w.key(key, first: true)
            w.string(message)
            w.raw("}")
        }
    }

    /// `{}`: nothing new (await timeout, get_deltas at the current rev).
    static var empty: HTTPResponse { json(Array("{}".utf8)) }

    /// `{"error": message}` with the status and the headers each error kind needs.
    static func error(_ error: DatastoreAPIError) -> HTTPResponse {
        switch error {
        case .badRequest(let message):
            return single("error", message, status: .badRequest)
        case .unauthorized(let message):
            var response = single("error", message, status: .unauthorized)
            response.headers.set("WWW-Authenticate", "Bearer realm=\"datastore\"")
            return response
        case .adminUnauthorized:
            var response = single("error", "Admin authentication required", status: .unauthorized)
            response.headers.set("WWW-Authenticate", "Basic realm=\"quartet\"")
            return response
        case .adminRateLimited(let seconds):
            var response = single("error", "Too many failed admin logins; try again later", status: .tooManyRequests)
            response.headers.set("Retry-After", String(seconds))
            return response
        case .unknownEndpoint(let path):
            return single("error", "Unknown endpoint: \(String(path.prefix(100)))", status: .notFound)
        case .methodNotAllowed:
            var response = single("error", "Method not allowed", status: .methodNotAllowed)
            response.headers.set("Allow", allow)
            return response
        case .payloadTooLarge:
            return single("error", "Request body too large", status: .payloadTooLarge)
        case .unavailable(let message):
            return single("error", message, status: .serviceUnavailable)
        }
    }

    /// 204 answer to a CORS preflight (no authentication needed).
    static var preflight: HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Access-Control-Allow-Origin", "*")
        headers.set("Access-Control-Allow-Methods", allow)
        headers.set("Access-Control-Allow-Headers",
                    "Authorization, Content-Type, X-Dropbox-Request-Id, X-Dropbox-User-Agent")
        headers.set("Access-Control-Max-Age", "86400")
        headers.set("Cache-Control", "no-store")
        return HTTPResponse(status: .noContent, headers: headers, body: .empty)
    }
}
