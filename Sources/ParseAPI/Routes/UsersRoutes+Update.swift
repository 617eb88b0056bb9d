import Core
import Auth

extension UsersRoutes {
    /// `PUT /users/:id` (spec §9.6).
    static func update(_ c: ParseContext, _ id: String) throws -> ParseReply {
        if c.caller.userId == nil && !c.caller.isMaster { throw ParseError(206, "Cannot modify user \(id).") }
        var body = c.body
        if body["emailVerified"] != nil && !c.caller.isMaster { throw emailVerificationError }
        var extra: [(path: [String], op: FieldOperation)] = []
        if let u = body["username"] {
            guard let username = u.stringValue, !username.isEmpty else { throw ParseError(200, "bad or missing username") }
            extra.append((["_username_folded"], .set(.string(username.lowercased()))))
        }
        if let e = body["email"] {
            if e.isNull {
                extra.append((["_email_folded"], .delete))
            } else {
                guard let email = e.stringValue, isEmail(email) else { throw ParseError(125, "Email address format is invalid.") }
                extra.append((["_email_folded"], .set(.string(email.lowercased()))))
            }
        }
        var newHash: String?
        var newPassword: String?
        if let p = body["password"] {
            guard let password = p.stringValue else { throw ParseError(142, "Password must be a string.") }
            try Passwords.check(password, username: body["username"]?.stringValue, config: c.config)
            newHash = try Passwords.hash(password, config: c.config)
            newPassword = password
        }
        let authData = body["authData"]
        body["sessionToken"] = nil
        var w = try WriteRequest.update(body, className: "_User")
        w.operations += extra
        let caller = c.caller, config = c.config, installationId = c.installationId
        let baseW = w, hashToSet = newHash, passwordToSet = newPassword
        let (result, token) = try c.write { tx -> (ObjectWriter.Result, String?) in
            let writer = ObjectWriter(tx: tx, caller: caller, config: config)
            guard FieldNames.isPlausibleObjectId(id), let user = try tx.object("_User", id) else {
                throw ParseError(206, "Insufficient auth.")
            }
            if !caller.isMaster && !ACLPermissions.allows(user.acl, "write", group: caller.aclGroup) {
                throw ParseError(206, "Insufficient auth.")
            }
            var w = baseW
            if w.aclGiven, !caller.isMaster { w.acl = ACL.forcingOwner(w.acl ?? JSONObject(), id) }
            if let authData { try AnonymousAuth.applyLink(authData, to: &w, user: user, tx: tx, config: config) }
            if let newHash = hashToSet, let newPassword = passwordToSet {
                try checkHistory(newPassword, user: user, config: config)
                var history = user.data["_password_history"]?.arrayValue ?? []
                if let current = user.data["_hashed_password"] { history.insert(current, at: 0) }
                w.operations.append((["_password_history"], .set(.array(Array(history.prefix(20))))))
                w.operations.append((["_hashed_password"], .set(.string(newHash))))
                w.operations.append((["_password_changed_at"], .set(.number(JSONNumber(ParseDate.nowMillis())))))
            }
            let schema = try Schemas.load("_User", tx)
            let result = try writer.update("_User", id, w, loaded: (user, schema))
            var token: String?
            if hashToSet != nil && config.revokeSessionOnPasswordReset {
                try Sessions.deleteAll(tx, userId: id)
                if !caller.isMaster && caller.userId == id {
                    token = try Sessions.create(tx, userId: id, installationId: installationId,
                                                createdWith: ["action": "update", "authProvider": "password"], config: config).0
                }
            }
            return (result, token)
        }
        var reply = ClassesRoutes.updatedReply(c, result)
        if let token, case .object(var o) = reply.body {
            o["sessionToken"] = .string(token)
            reply.body = .object(o)
        }
        return reply
    }

    /// `maxPasswordHistory`: the new password may not equal the current or the previous n-1 (spec §9.10).
    static func checkHistory(_ password: String, user: StoredObject, config: ParseConfig) throws {
        let n = config.passwordMaxHistory
        guard n > 0 else { return }
        var hashes: [String] = []
        if let current = user.data["_hashed_password"]?.stringValue { hashes.append(current) }
        hashes += (user.data["_password_history"]?.arrayValue ?? []).compactMap(\.stringValue)
        for h in hashes.prefix(n) where PasswordHasher.verify(password, hash: h) {
            throw ParseError(142, "New password should not be the same as last \(n) passwords.")
        }
    }
}
