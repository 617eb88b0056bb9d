import Foundation
import Core
import HTTP

/// The product's own admin API under `/_quartet/admin`, guarded by the server admin's HTTP Basic credentials.
/// APIs add their own admin routes to the same group (for example Datastore token issuance).
enum AdminRoutes {
    /// Bodies of admin requests are small JSON documents.
    static let maxBodyBytes = 65_536

    static func register(on group: RouteGroup, admin: AdminAuthenticator, config: QuartetConfiguration) {
        // POST /_quartet/admin/backup {"destination": "/abs/path"}: online backup, as `quartet backup`.
        group.on(.post, "/backup", maxBodyBytes: maxBodyBytes) { request in
            guard admin.isAdmin(request) else { return .response(AdminWire.unauthorized()) }
            let body = try request.body.readAll(limit: maxBodyBytes)
            guard let json = try? JSONParser.parse(body), let destination = json["destination"]?.stringValue,
                  destination.hasPrefix("/"), !destination.split(separator: "/").contains("..") else {
                return .response(AdminWire.error(.badRequest, "body must be {\"destination\": \"/absolute/path\"}"))
            }
            do {
                let pages = try DatabaseMaintenance.backup(config, to: destination)
                return .response(AdminWire.ok(["ok": true, "destination": .string(destination),
                                               "pages": .number(JSONNumber(pages))]))
            } catch {
                return .response(AdminWire.error(.internalServerError, "backup failed: \(error)"))
            }
        }
    }
}

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
