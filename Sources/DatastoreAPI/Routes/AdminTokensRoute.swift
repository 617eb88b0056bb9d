import HTTP
import Core
import Auth

/// `POST /_quartet/admin/datastore/tokens` and `.../tokens/revoke` (§4.4), guarded by the server admin's
/// credentials only; datastore user tokens are never accepted here.
enum AdminTokensRoute {
    static func register(on group: RouteGroup, _ context: EndpointContext,
                         serverAdmin: ServerAdmin?) {
        group.post("/tokens") { request in
            do {
                try requireAdmin(request, serverAdmin)
                let params = try RequestParameters(request, maxBodyBytes: 64 << 10)
                let name = params.value("user") ?? ""
                guard Identifiers.isValidUserName(name) else {
                    throw DatastoreAPIError.badRequest("Invalid user name: \(Quote.echo(name))")
                }
                let (user, token) = try DatastoreTokens.issue(userName: name, store: context.store, source: "admin")
                return .response(WireResponse.object { w in
                    w.raw("{")
                    w.key("user", first: true); w.string(user.name)
                    w.key("uid", first: false); w.int(user.uid)
                    w.key("token", first: false); w.string(token)
                    w.raw("}")
                })
            } catch {
                return .response(context.renderer.render(error, request))
            }
        }
        group.post("/tokens/revoke") { request in
            do {
                try requireAdmin(request, serverAdmin)
                let params = try RequestParameters(request, maxBodyBytes: 64 << 10)
                let token = try params.required("token")
                let revoked = try DatastoreTokens.revoke(token, store: context.store)
                return .response(WireResponse.object { w in w.raw(revoked ? "{\"revoked\":true}" : "{\"revoked\":false}") })
            } catch {
                return .response(context.renderer.render(error, request))
            }
        }
    }

    /// Throws unless `request` carries the server admin's HTTP Basic credentials; 429 for a client address
    /// that sent too many wrong ones.
    static func requireAdmin(_ request: HTTPRequest, _ serverAdmin: ServerAdmin?) throws {
        guard let serverAdmin else { throw DatastoreAPIError.adminUnauthorized }
        switch serverAdmin.verify(authorization: request.headers["Authorization"], clientAddress: request.remoteAddress) {
        case .ok: return
        case .wrong: throw DatastoreAPIError.adminUnauthorized
        case .rateLimited(let seconds): throw DatastoreAPIError.adminRateLimited(retryAfterSeconds: seconds)
        }
    }
}
