import Core
import HTTP

/// JSON bodies of the admin API: `{"error": "..."}` on failure.
enum AdminWire {
    static func ok(_ object: JSONObject) -> HTTPResponse { .json(.ok, JSON.object(object).serialized()) }

    static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        .json(status, JSON.object(["error": .string(message)]).serialized())
    }

    static func unauthorized() -> HTTPResponse {
        var response = error(.unauthorized, "server admin credentials required")
        response.headers.set("WWW-Authenticate", "Basic realm=\"quartet\"")
        return response
    }

    /// 429 for a client address that sent too many wrong admin passwords (`admin.maxFailedLogins`).
    static func tooManyFailedLogins(retryAfterSeconds: Int) -> HTTPResponse {
        var response = error(.tooManyRequests, "too many failed admin logins; try again later")
        response.headers.set("Retry-After", String(retryAfterSeconds))
        return response
    }

    /// Early errors (413, 414, 431, 400, 404, 405) under the admin mount in the same format.
    static func render(_ error: any Error, _ request: HTTPRequest?) -> HTTPResponse {
        guard let http = error as? HTTPError else { return self.error(.internalServerError, "internal error") }
        switch http {
        case .badRequest(let why): return self.error(.badRequest, why)
        case .notFound: return self.error(.notFound, "not found")
        case .methodNotAllowed(let allowed):
            var r = self.error(.methodNotAllowed, "method not allowed")
            r.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return r
        case .requestTimeout: return self.error(.requestTimeout, "request timeout")
        case .payloadTooLarge: return self.error(.payloadTooLarge, "request body too large")
        case .uriTooLong: return self.error(.uriTooLong, "request target too long")
        case .headerFieldsTooLarge: return self.error(.headerFieldsTooLarge, "request headers too large")
        case .unsupportedMediaType: return self.error(.unsupportedMediaType, "unsupported media type")
        case .rangeNotSatisfiable: return self.error(.rangeNotSatisfiable, "range not satisfiable")
        case .expectationFailed: return self.error(.expectationFailed, "expectation failed")
        case .serviceUnavailable: return self.error(.serviceUnavailable, "service unavailable")
        }
    }
}
