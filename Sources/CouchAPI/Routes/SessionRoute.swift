import Core
import HTTP

/// `/_session` (spec §3.1.5): cookie login, who-am-I and logout. Public; also mounted at the main
/// listener's root, where the CouchDB replicator posts its login.
enum SessionRoute {
    static func handle(_ call: CouchCall) throws -> HTTPResponse {
        switch call.method {
        case .post: return try login(call)
        case .delete:
            return redirecting(call, CouchResponse.ok(headers: [("Set-Cookie", SessionCookie.clearing)]))
        default: return try whoAmI(call)
        }
    }

    /// `POST /_session` with JSON or form credentials.
    private static func login(_ call: CouchCall) throws -> HTTPResponse {
        let type = RequestBodies.mediaType(call.request)
        let fields: (name: String?, username: String?, password: String?)
        switch type {
        case "application/json":
            guard case .object(let object) = try RequestBodies.json(call.request, limit: 1 << 16) else {
                throw CouchError.requestBodyNotObject
            }
            func text(_ key: String) throws(CouchError) -> String? {
                guard let value = object[key], !value.isNull else { return nil }
                guard case .string(let text) = value else { throw .badRequest("\(key) must be a string") }
                return text
            }
            fields = (try text("name"), try text("username"), try text("password"))
        case "application/x-www-form-urlencoded":
            let bytes = try RequestBodies.read(call.request, limit: 1 << 16)
            let form: FormParameters
            do { form = try FormParameters.parse(bytes) } catch { throw CouchError.badRequest("Invalid form body") }
            fields = (form.pairs.last { $0.name == "name" }?.value, form.pairs.last { $0.name == "username" }?.value,
                      form.pairs.last { $0.name == "password" }?.value)
        default:
            throw CouchError.badContentType("Content-Type must be 'application/x-www-form-urlencoded' or 'application/json'")
        }
        if let name = fields.name, let username = fields.username, name != username {
            throw CouchError.badRequest("request body contains different usernames")
        }
        guard let name = fields.name ?? fields.username else {
            throw CouchError.badRequest("request body must contain a username")
        }
        let credentials: Credentials
        do {
            credentials = try call.context.authenticator.login(name: name, password: fields.password ?? "",
                                                               clientAddress: call.request.remoteAddress)
        } catch {
            throw CouchFailure(error.error, headers: error.headers + [("Set-Cookie", SessionCookie.clearing)])
        }
        guard let user = credentials.name, let token = call.context.authenticator.issueToken(user: user) else {
            throw CouchError.internalError
        }
        var body = JSONObject()
        body["ok"] = .bool(true)
        body["name"] = .string(user)
        body["roles"] = .array(credentials.roles.map(JSON.string))
        let cookie = SessionCookie.setCookie(token: token, maxAge: call.config.sessionTimeout,
                                             secure: call.request.isTLS, sameSite: call.config.cookieSameSite)
        return redirecting(call, CouchResponse.json(.ok, .object(body), headers: [("Set-Cookie", cookie)]))
    }

    /// `GET /_session`: the caller's user context.
    private static func whoAmI(_ call: CouchCall) throws -> HTTPResponse {
        let credentials = call.credentials
        if credentials.name == nil, call.query.flag("basic") { throw CouchError.unauthorized("Please login.") }
        var userContext = JSONObject()
        userContext["name"] = credentials.name.map(JSON.string) ?? .null
        userContext["roles"] = .array(credentials.roles.map(JSON.string))
        var info = JSONObject()
        info["authentication_handlers"] = .array([.string("cookie"), .string("default")])
        switch credentials.method {
        case .cookie: info["authenticated"] = .string("cookie")
        case .basic: info["authenticated"] = .string("default")
        case .anonymous: break
        }
        info["authentication_db"] = .string("_users")
        var body = JSONObject()
        body["ok"] = .bool(true)
        body["userCtx"] = .object(userContext)
        body["info"] = .object(info)
        return CouchResponse.json(.ok, .object(body))
    }

    /// `?next={path}` turns a successful answer into a 302 to the absolute URL of that path. Decision
    /// §3.1.5: only a relative path starting with a single `/` is followed (no open redirect).
    private static func redirecting(_ call: CouchCall, _ response: HTTPResponse) -> HTTPResponse {
        guard let next = call.query.value("next"), next.utf8.first == UInt8(ascii: "/"),
              next.utf8.dropFirst().first != UInt8(ascii: "/"), next.utf8.dropFirst().first != UInt8(ascii: "\\"),
              !next.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) else { return response }
        var redirect = response
        redirect.status = .found
        redirect.headers.add("Location", call.origin + next)
        return redirect
    }
}
