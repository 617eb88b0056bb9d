import Core
import HTTP

/// HTTP responses of the Backbeam API (§2.3): JSON with `Cache-Control: no-store` and
/// `Access-Control-Allow-Origin: *`, JSONP when a callback was given, errors in the body of §2.4.
enum BackbeamResponses {
    /// The headers every API response carries. CORS: the browser SDK calls cross-origin and requests
    /// authenticate by signed parameters, never cookies, so a wildcard leaks nothing (§2.3.4).
    static func apiHeaders(contentType: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(4)
        headers.add("Content-Type", contentType)
        headers.add("Cache-Control", "no-store")
        headers.add("Access-Control-Allow-Origin", "*")
        return headers
    }

    /// A JSON body with `status`, or with 200 and the JSONP wrapping when `callback` is set (§2.3.3).
    static func json(_ body: [UInt8], status: Int, callback: String?) -> HTTPResponse {
        if let callback {
            var headers = apiHeaders(contentType: JSONP.contentType)
            headers.add("X-Content-Type-Options", "nosniff")
            return HTTPResponse(status: .ok, headers: headers, body: .bytes(JSONP.wrap(body, callback: callback)))
        }
        return HTTPResponse(status: HTTPStatus(code: status), headers: apiHeaders(contentType: "application/json; charset=utf-8"),
                            body: .bytes(body))
    }

    /// The error body of §2.4; a 405 carries `Allow`, a 503 `Retry-After: 1`.
    /// An email link page (§5.4.8): HTML, never cached, a policy that allows no script and posts only to
    /// the page's own origin. Sent as a whole response, so never wrapped for JSONP.
    static func html(_ body: [UInt8], status: Int) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        headers.add("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
        headers.add("X-Content-Type-Options", "nosniff")
        return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: .bytes(body))
    }

    static func error(_ error: BackbeamError, callback: String?, allow: [String] = []) -> HTTPResponse {
        var response = json(error.bodyBytes, status: error.httpStatus, callback: callback)
        if !allow.isEmpty { response.headers.add("Allow", allow.joined(separator: ", ")) }
        if error.httpStatus == 503 { response.headers.add("Retry-After", "1") }
        return response
    }

    /// The CORS preflight answer (§2.3.4): 204, every method, the requested headers (each a valid token)
    /// or the SDKs' headers, cached for a day, never credentials; no signature needed.
    static func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Access-Control-Allow-Origin", "*")
        headers.add("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE, OPTIONS")
        var allowed = "Content-Type, x-backbeam-sdk, x-backbeam-auth, x-backbeam-old-tokens, x-backbeam-current-token"
        if let asked = request.headers["Access-Control-Request-Headers"] {
            let names = asked.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            if !names.isEmpty, names.allSatisfy(isToken) { allowed = names.joined(separator: ", ") }
        }
        headers.add("Access-Control-Allow-Headers", allowed)
        headers.add("Access-Control-Max-Age", "86400")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .noContent, headers: headers)
    }

    /// An RFC 9110 token (header names).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }

    /// Early errors the server detects before a handler runs (oversized or malformed requests), in the
    /// API's format (§2.5): 413 / 414 / 431 `RequestTooLarge`, 400 `InvalidParameters`, 404 `NotFound`,
    /// 405 `MethodNotAllowed`.
    static func early(_ error: HTTPError) -> HTTPResponse {
        switch error {
        case .payloadTooLarge:
            return self.error(BackbeamError(.requestTooLarge, "The request body is too large"), callback: nil)
        case .uriTooLong:
            return self.error(BackbeamError(.requestTooLarge, "The request line is too long", httpStatus: 414), callback: nil)
        case .headerFieldsTooLarge:
            return self.error(BackbeamError(.requestTooLarge, "The request headers are too large", httpStatus: 431), callback: nil)
        case .badRequest(let why):
            return self.error(BackbeamError(.invalidParameters, why.isEmpty ? "Malformed request" : "Malformed request: \(why)"),
                              callback: nil)
        case .notFound:
            return self.error(BackbeamError(.notFound), callback: nil)
        case .methodNotAllowed(let allowed):
            return self.error(BackbeamError(.methodNotAllowed), callback: nil, allow: allowed.map(\.rawValue))
        case .requestTimeout:
            return self.error(BackbeamError(.invalidParameters, "The request was not received in time", httpStatus: 408), callback: nil)
        case .unsupportedMediaType:
            return self.error(BackbeamError(.invalidParameters, "Unsupported content type"), callback: nil)
        case .rangeNotSatisfiable:
            return self.error(BackbeamError(.invalidParameters, "Range not satisfiable", httpStatus: 416), callback: nil)
        case .expectationFailed:
            return self.error(BackbeamError(.invalidParameters, "Expectation failed", httpStatus: 417), callback: nil)
        case .serviceUnavailable:
            return self.error(BackbeamError(.serviceUnavailable), callback: nil)
        }
    }
}
