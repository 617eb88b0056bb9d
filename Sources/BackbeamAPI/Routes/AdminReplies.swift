import Core
import HTTP
import Auth

/// Plain-JSON answers of the Backbeam admin endpoints (§5.6): `{"error": "..."}` on failure.
enum AdminReplies {
    static func json(_ object: JSONObject, status: HTTPStatus = .ok) -> HTTPResponse {
        var response = HTTPResponse.json(status, bytes: JSON.object(object).serializedBytes())
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        json(JSONObject([("error", .string(message))]), status: status)
    }

    /// 401 with the Basic challenge, or 429 for an address that sent too many wrong passwords; nil when
    /// the request carries the server admin's credentials. Backbeam keys are never accepted here.
    static func refusal(_ request: HTTPRequest, _ admin: ServerAdmin?) -> HTTPResponse? {
        guard let admin else { return unauthorized() }
        switch admin.verify(authorization: request.headers["Authorization"], clientAddress: request.remoteAddress) {
        case .ok:
            return nil
        case .wrong:
            return unauthorized()
        case .rateLimited(let seconds):
            var response = error(.tooManyRequests, "Too many failed admin logins; try again later")
            response.headers.set("Retry-After", String(seconds))
            return response
        }
    }

    static func unauthorized() -> HTTPResponse {
        var response = error(.unauthorized, "Admin authentication required")
        response.headers.set("WWW-Authenticate", "Basic realm=\"quartet\"")
        return response
    }

    /// Early errors under the admin mount.
    static func early(_ error: any Error) -> HTTPResponse {
        guard let http = error as? HTTPError else { return self.error(.internalServerError, "Internal error") }
        switch http {
        case .payloadTooLarge: return self.error(.payloadTooLarge, "Request body too large")
        case .uriTooLong: return self.error(.uriTooLong, "Request target too long")
        case .headerFieldsTooLarge: return self.error(.headerFieldsTooLarge, "Request headers too large")
        case .notFound: return self.error(.notFound, "Not found")
        case .methodNotAllowed(let allowed):
            var response = self.error(.methodNotAllowed, "Method not allowed")
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return response
        default: return self.error(http.status, "Bad request")
        }
    }
}

/// The parameters of an admin request: form, query string, or a JSON object body (§5.6).
struct AdminParameters {
    private var values: [String: String] = [:]

    static let maxBodyBytes = 64 << 10

    init(_ request: HTTPRequest) throws {
        for (name, value) in request.queryParameters.pairs { values[name] = values[name] ?? value }
        let body = try request.body.readAll(limit: Self.maxBodyBytes)
        guard !body.isEmpty else { return }
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        if type.hasPrefix("application/json") {
            guard let object = (try? JSONParser.parse(body))?.objectValue else { throw AdminInputError() }
            for (name, value) in object {
                if let text = value.stringValue { values[name] = text }
            }
        } else if type.hasPrefix("application/x-www-form-urlencoded") {
            guard let form = try? FormParameters.parse(Substring(String(decoding: body, as: UTF8.self)), plusIsSpace: true) else {
                throw AdminInputError()
            }
            for (name, value) in form.pairs { values[name] = value }
        }
    }

    subscript(_ name: String) -> String? { values[name] }
}

struct AdminInputError: Error {}
