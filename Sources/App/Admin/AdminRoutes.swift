import Foundation
import Core
import Auth
import HTTP

/// The product's own admin API under `/_quartet/admin`, guarded by the server admin's HTTP Basic credentials.
/// APIs add their own admin routes to the same group (for example Datastore token issuance).
enum AdminRoutes {
    /// Bodies of admin requests are small JSON documents.
    static let maxBodyBytes = 65_536

    static func register(on group: RouteGroup, admin: ServerAdmin, config: QuartetConfiguration) {
        // POST /_quartet/admin/backup {"destination": "/abs/path"}: online backup, as `quartet backup`.
        group.on(.post, "/backup", maxBodyBytes: maxBodyBytes) { request in
            if let refusal = refusal(request, admin) { return .response(refusal) }
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

    /// The answer to a request without the server admin's credentials (401, or 429 for an address that sent
    /// too many wrong ones); nil when the credentials are right.
    static func refusal(_ request: HTTPRequest, _ admin: ServerAdmin) -> HTTPResponse? {
        switch admin.verify(authorization: request.headers["Authorization"], clientAddress: request.remoteAddress) {
        case .ok: return nil
        case .wrong: return AdminWire.unauthorized()
        case .rateLimited(let seconds): return AdminWire.tooManyFailedLogins(retryAfterSeconds: seconds)
        }
    }
}
