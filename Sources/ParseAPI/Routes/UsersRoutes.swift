import Core
import Auth

/// `/users` (class `_User`): sign-up, anonymous auth data, the current user, user updates (spec §9).
enum UsersRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/users", ParseRoutes.readOnly("create")) { c in try signUp(c) }
        t.add(.get, "/users", ParseRoutes.batchableRead) { c in try ClassesRoutes.find(c, "_User") }
        t.add(.get, "/users/me") { c in try me(c) }
        t.add(.get, "/users/:objectId", ParseRoutes.batchableRead) { c in try ClassesRoutes.get(c, "_User", c.param("objectId")) }
        t.add(.put, "/users/:objectId", ParseRoutes.readOnly("update")) { c in try update(c, c.param("objectId")) }
        t.add(.delete, "/users/:objectId", ParseRoutes.readOnly("delete")) { c in try delete(c, c.param("objectId")) }
    }

    static let emailVerificationError = ParseError(119, "Clients aren't allowed to manually update email verification.")

    static func isEmail(_ s: String) -> Bool {
        guard let at = s.firstIndex(of: "@") else { return false }
        return at != s.startIndex && s.index(after: at) != s.endIndex
    }

    /// The own-view rendering of a user (everything except hidden fields and the password).
    static func ownView(_ c: ParseContext, _ user: StoredObject, schema: ClassSchema?) -> JSONObject {
        var r = ObjectRenderer(serverURL: c.serverURL, appId: c.app.appId, schema: schema)
        r.showAuthData = true
        return r.render(user)
    }

    static func signUp(_ c: ParseContext) throws -> ParseReply {
        var body = c.body
        if body["authData"] != nil { return try AnonymousAuth.signUpOrLogin(c) }
        guard let username = body["username"]?.stringValue, !username.isEmpty else {
            throw ParseError(200, "bad or missing username")
        }
        guard let password = body["password"]?.stringValue, !password.isEmpty else {
            throw ParseError(201, "password is required")
        }
        if body["emailVerified"] != nil && !c.caller.isMaster { throw emailVerificationError }
        if let id = body["objectId"]?.stringValue, id.hasPrefix("role:") { throw ParseError(119, "Invalid object ID.") }
        var emailFolded: String?
        if let e = body["email"], !e.isNull {
            guard let email = e.stringValue, isEmail(email) else { throw ParseError(125, "Email address format is invalid.") }
            emailFolded = email.lowercased()
        }
        body["sessionToken"] = nil
        var w = try WriteRequest.create(body, className: "_User", config: c.config, caller: c.caller)
        try Passwords.check(password, username: username, config: c.config)
        let hash = try Passwords.hash(password, config: c.config)
        let id = w.customObjectId ?? RandomID.alphanumeric(10)
        w.customObjectId = id
        w.operations.append((["_hashed_password"], .set(.string(hash))))
        w.operations.append((["_username_folded"], .set(.string(username.lowercased()))))
        w.operations.append((["_password_changed_at"], .set(.number(JSONNumber(ParseDate.nowMillis())))))
        if let emailFolded { w.operations.append((["_email_folded"], .set(.string(emailFolded)))) }
        let acl = defaultACL(w, id: id, config: c.config)
        let w0 = w
        let caller = c.caller, config = c.config, installationId = c.installationId
        let (result, token) = try c.write { tx -> (ObjectWriter.Result, String) in
            let result = try ObjectWriter(tx: tx, caller: caller, config: config).create("_User", w0, acl: .some(acl))
            let (token, _) = try Sessions.create(tx, userId: id, installationId: installationId,
                                                 createdWith: ["action": "signup", "authProvider": "password"], config: config)
            return (result, token)
        }
        var reply = ClassesRoutes.createdReply(c, result)
        if case .object(var o) = reply.body {
            o["sessionToken"] = .string(token)
            reply.body = .object(o)
        }
        return reply
    }

    /// New users are private unless `enforcePrivateUsers` is off; a given ACL keeps the owner's entry.
    static func defaultACL(_ w: WriteRequest, id: String, config: ParseConfig) -> JSONObject {
        if w.aclGiven, let given = w.acl { return ACL.forcingOwner(given, id) }
        var acl: JSONObject = [id: ["read": true, "write": true]]
        if !config.enforcePrivateUsers { acl["*"] = ["read": true] }
        return acl
    }

    static func me(_ c: ParseContext) throws -> ParseReply {
        guard let userId = c.caller.userId, let token = c.sessionToken else { throw ParseError.invalidSessionToken }
        let (user, schema) = try c.read { tx in (try tx.object("_User", userId), try Schemas.load("_User", tx)) }
        guard let user else { throw ParseError.invalidSessionToken }
        var out = ownView(c, user, schema: schema)
        out["sessionToken"] = .string(token)
        return .ok(out)
    }

    static func delete(_ c: ParseContext, _ id: String) throws -> ParseReply {
        if c.caller.userId == nil && !c.caller.isMaster { throw ParseError(206, "Insufficient auth to delete user") }
        let caller = c.caller, config = c.config
        _ = try c.write { tx -> Bool in
            _ = try ObjectWriter(tx: tx, caller: caller, config: config).delete("_User", id)
            try Sessions.deleteAll(tx, userId: id)
            return true
        }
        return .empty
    }
}
