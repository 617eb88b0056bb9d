import Core
import Auth

/// `/login`, `/logout`, `/verifyPassword`, `/loginAs` (spec §9.3-§9.8).
enum LoginRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.get, "/login") { c in try login(c, createSession: true) }
        t.add(.post, "/login") { c in try login(c, createSession: true) }
        t.add(.get, "/verifyPassword") { c in try login(c, createSession: false) }
        t.add(.post, "/verifyPassword") { c in try login(c, createSession: false) }
        t.add(.post, "/logout") { c in try logout(c) }
        t.add(.post, "/loginAs", RouteOptions(readOnlyDenial: "read-only masterKey isn't allowed to perform the loginAs operation.")) { c in
            try loginAs(c)
        }
        t.add(.post, "/upgradeToRevocableSession") { c in try SessionsRoutes.upgrade(c) }
    }

    static let invalidCredentials = ParseError(101, "Invalid username/password.")

    static func login(_ c: ParseContext, createSession: Bool) throws -> ParseReply {
        // Body first; the query string (values not JSON-parsed) when the body names no user.
        var fields: [String: JSON] = [:]
        let source = c.body
        if source["username"] != nil || source["email"] != nil {
            for k in ["username", "email", "password"] { fields[k] = source[k] }
        } else {
            let q = c.http.queryParameters
            for k in ["username", "email", "password"] { if let v = q.first(k) { fields[k] = .string(v) } }
        }
        guard fields["username"] != nil || fields["email"] != nil else {
            throw ParseError(200, "username/email is required.")
        }
        guard let passwordValue = fields["password"] else { throw ParseError(201, "password is required.") }
        for (_, v) in fields where v.stringValue == nil { throw invalidCredentials }
        guard let password = passwordValue.stringValue else { throw invalidCredentials }
        let username = fields["username"]?.stringValue, email = fields["email"]?.stringValue
        let (found, schema) = try c.read { tx -> (StoredObject?, ClassSchema?) in
            (try findUser(tx, username: username, email: email), try Schemas.load("_User", tx))
        }
        let config = c.config
        guard var user = found, let hash = user.data["_hashed_password"]?.stringValue else {
            // Same work as a real check, so timing does not reveal whether the user exists.
            _ = PasswordHasher.verify(password, hash: Passwords.dummyHash)
            throw invalidCredentials
        }
        if !c.caller.isMaster, let acl = user.acl, acl.isEmpty { throw invalidCredentials }
        if let threshold = config.lockoutThreshold {
            let failures = user.data["_failed_login_count"]?.int64Value ?? 0
            if failures >= Int64(threshold), let until = user.data["_account_lockout_expires_at"]?.int64Value,
               until > Int64(ParseDate.nowMillis()) {
                throw ParseError(101, "Your account is locked due to multiple failed login attempts. Please try again "
                    + "after \(config.lockoutDurationMinutes) minute(s)")
            }
        }
        let ok = PasswordHasher.verify(password, hash: hash)
        let userId = user.objectId
        if !ok {
            if let threshold = config.lockoutThreshold {
                try c.write { tx in
                    guard var u = try tx.object("_User", userId) else { return }
                    let n = (u.data["_failed_login_count"]?.int64Value ?? 0) + 1
                    u.data["_failed_login_count"] = .number(JSONNumber(n))
                    if n >= Int64(threshold) {
                        let until = ParseDate.nowMillis() + config.lockoutDurationMinutes * 60_000
                        u.data["_account_lockout_expires_at"] = .number(JSONNumber(until))
                    }
                    try tx.update(u)
                }
            }
            throw invalidCredentials
        }
        let installationId = c.installationId
        var needsReset = config.lockoutThreshold != nil && (user.data["_failed_login_count"]?.int64Value ?? 0) != 0
        if let days = config.passwordMaxAgeDays, days > 0 {
            if let changed = user.data["_password_changed_at"]?.int64Value {
                if Int64(ParseDate.nowMillis()) - changed > Int64(days) * 86_400_000 {
                    throw ParseError(101, "Your password has expired. Please reset your password.")
                }
            } else {
                // Users without a known change date start their password age now (spec §9.10).
                needsReset = true
            }
        }
        var token: String?
        let refreshUser = needsReset
        if createSession || refreshUser {
            token = try c.write { tx -> String? in
                if refreshUser, var u = try tx.object("_User", userId) {
                    u.data["_failed_login_count"] = 0
                    u.data["_account_lockout_expires_at"] = nil
                    if u.data["_password_changed_at"] == nil {
                        u.data["_password_changed_at"] = .number(JSONNumber(ParseDate.nowMillis()))
                    }
                    try tx.update(u)
                }
                guard createSession else { return nil }
                return try Sessions.create(tx, userId: userId, installationId: installationId,
                                           createdWith: ["action": "login", "authProvider": "password"], config: config).0
            }
            if needsReset { user.data["_failed_login_count"] = 0 }
        }
        var out = UsersRoutes.ownView(c, user, schema: schema)
        if let token { out["sessionToken"] = .string(token) }
        return .ok(out)
    }

    /// Exact, case-sensitive lookup: both given -> both must match; username also matches an email.
    static func findUser(_ tx: any ParseTransaction, username: String?, email: String?) throws -> StoredObject? {
        func byField(_ f: String, _ v: String) throws -> [StoredObject] {
            try tx.find("_User", path: [f], equals: .text(v), limit: 2)
        }
        switch (username, email) {
        case (let u?, let e?): return try byField("username", u).first { $0.data["email"]?.stringValue == e }
        case (nil, let e?): return try byField("email", e).first
        case (let u?, nil): return try byField("username", u).first ?? byField("email", u).first
        default: return nil
        }
    }

    static func logout(_ c: ParseContext) throws -> ParseReply {
        if let sessionId = c.caller.sessionId {
            try c.write { tx in _ = try tx.delete("_Session", sessionId) }
        }
        return .empty
    }

    static func loginAs(_ c: ParseContext) throws -> ParseReply {
        guard c.caller.isMaster else { throw ParseError(119, "master key is required") }
        let userId = (c.body["userId"] ?? c.params["userId"])?.stringValue ?? ""
        guard !userId.isEmpty else { throw ParseError(162, "userId must not be empty, null, or undefined") }
        let config = c.config, installationId = c.installationId
        let (user, token) = try c.write { tx -> (StoredObject?, String?) in
            guard FieldNames.isPlausibleObjectId(userId), let user = try tx.object("_User", userId) else { return (nil, nil) }
            let token = try Sessions.create(tx, userId: userId, installationId: installationId,
                                            createdWith: ["action": "login", "authProvider": "masterkey"], config: config).0
            return (user, token)
        }
        guard let user, let token else { throw ParseError(101, "user not found") }
        let schema = try c.read { try Schemas.load("_User", $0) }
        var out = UsersRoutes.ownView(c, user, schema: schema)
        out["sessionToken"] = .string(token)
        return .ok(out)
    }
}
