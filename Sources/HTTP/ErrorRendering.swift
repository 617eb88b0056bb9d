/// Turns errors into responses: the group's renderer when there is one, plain `{"error":"..."}` JSON else.
enum ErrorRendering {
    /// A short client-facing message; internal causes of other errors are never exposed.
    static func message(of error: HTTPError) -> String {
        switch error {
        case .badRequest(let reason): return reason.isEmpty ? "bad request" : reason
        case .notFound: return "not found"
        case .methodNotAllowed: return "method not allowed"
        case .requestTimeout: return "request timeout"
        case .payloadTooLarge: return "payload too large"
        case .uriTooLong: return "request target too long"
        case .headerFieldsTooLarge: return "request header fields too large"
        case .unsupportedMediaType: return "unsupported media type"
        case .rangeNotSatisfiable: return "range not satisfiable"
        case .expectationFailed: return "expectation failed"
        case .serviceUnavailable: return "service unavailable"
        }
    }

    /// The plain rendering: HTTPError and RequestRefused by their status, anything else as an opaque 500.
    static func plain(_ error: any Error) -> HTTPResponse {
        if let refused = error as? RequestRefused { return HTTPResponse.plainError(refused.status, refused.message) }
        guard let httpError = error as? HTTPError else {
            return HTTPResponse.plainError(.internalServerError, "internal server error")
        }
        return HTTPResponse.plainError(httpError.status, message(of: httpError))
    }

    /// Renders with `renderer` when given, else plainly; a 405 always carries `Allow`, and a refusal
    /// with a retry time `Retry-After`.
    static func render(_ error: any Error, request: HTTPRequest?, renderer: ErrorRenderer?) -> HTTPResponse {
        var response = renderer.map { $0(error, request) } ?? plain(error)
        if case .methodNotAllowed(let allowed)? = error as? HTTPError, !response.headers.contains("Allow") {
            response.headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
        } else if let seconds = (error as? RequestRefused)?.retryAfterSeconds, !response.headers.contains("Retry-After") {
            response.headers.add("Retry-After", String(seconds))
        }
        return response
    }
}
