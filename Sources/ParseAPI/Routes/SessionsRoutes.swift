import Core

/// `/sessions` (class `_Session`, spec §10). Non-master callers only ever see their own sessions.
enum SessionsRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.get, "/sessions/me") { c in try me(c) }
        t.add(.get, "/sessions", ParseRoutes.batchableRead) { c in try ClassesRoutes.find(c, "_Session") }
        t.add(.get, "/sessions/:objectId", ParseRoutes.batchableRead) { c in
            try ClassesRoutes.get(c, "_Session", c.param("objectId"))
        }
        t.add(.post, "/sessions", ParseRoutes.readOnly("create")) { c in try create(c) }
        t.add(.put, "/sessions/:objectId", ParseRoutes.readOnly("update")) { c in try update(c, c.param("objectId")) }
        t.add(.delete, "/sessions/:objectId", ParseRoutes.readOnly("delete")) { c in try delete(c, c.param("objectId")) }
    }

    static let aclError = ParseError(105, "Cannot set ACL on a Session.")

    static func render(_ c: ParseContext, _ s: StoredObject, token: String?) -> JSONObject {
        var out = ObjectRenderer(serverURL: c.serverURL, appId: c.app.appId, schema: nil).render(s)
        if let token { out["sessionToken"] = .string(token) }
        return out
    }

    static func me(_ c: ParseContext) throws -> ParseReply {
        guard let token = c.sessionToken else { throw ParseError(209, "Session token required.") }
        guard let s = try c.read({ try Sessions.lookup($0, token: token) }) else {
            throw ParseError(209, "Session token not found.")
        }
        return .ok(render(c, s, token: token))
    }

    static func create(_ c: ParseContext) throws -> ParseReply {
        if c.body["ACL"] != nil { throw aclError }
        var userId = c.caller.userId
        if c.caller.isMaster, let u = c.body["user"]?["objectId"]?.stringValue { userId = u }
        guard let uid = userId else { throw ParseError(209, "Session token required.") }
        var extra = JSONObject()
        for (k, v) in c.body where !["user", "objectId", "sessionToken", "createdWith", "expiresAt"].contains(k) {
            guard FieldNames.isWritable(k) else { throw FieldNames.invalidField(k) }
            extra[k] = try Values.normalize(v)
        }
        try ForbiddenKeys.check(.object(extra))
        let fields = extra
        let config = c.config, installationId = (extra["installationId"]?.stringValue) ?? c.installationId
        let (token, s) = try c.write { tx in
            try Sessions.create(tx, userId: uid, installationId: installationId, createdWith: ["action": "create"],
                                config: config, extra: fields)
        }
        return .created(render(c, s, token: token), location: c.serverURL + "/classes/_Session/" + s.objectId)
    }

    static func upgrade(_ c: ParseContext) throws -> ParseReply {
        guard let uid = c.caller.userId else { throw ParseError(101, "invalid session") }
        let config = c.config, installationId = c.installationId
        let (token, s) = try c.write { tx in
            try Sessions.create(tx, userId: uid, installationId: installationId,
                                createdWith: ["action": "upgrade", "authProvider": "password"], config: config)
        }
        return .ok(render(c, s, token: token))
    }

    /// Loads a session the caller owns (master: any); otherwise 404 101.
    static func owned(_ tx: any ParseTransaction, _ id: String, _ caller: Caller) throws -> StoredObject {
        guard FieldNames.isPlausibleObjectId(id), let s = try tx.object("_Session", id) else { throw ParseError.objectNotFound }
        if !caller.isMaster && s.data["user"]?["objectId"]?.stringValue != caller.userId { throw ParseError.objectNotFound }
        return s
    }

    static func update(_ c: ParseContext, _ id: String) throws -> ParseReply {
        if c.caller.userId == nil && !c.caller.isMaster { throw ParseError.invalidSessionToken }
        if c.body["ACL"] != nil { throw aclError }
        for k in ["installationId", "sessionToken"] where c.body[k] != nil {
            throw ParseError(105, "\(k) cannot be changed on a Session.")
        }
        if c.body["user"] != nil && !c.caller.isMaster { throw ParseError(105, "user cannot be changed on a Session.") }
        let w = try WriteRequest.update(c.body, className: "_Session")
        let caller = c.caller, config = c.config
        let result = try c.write { tx -> ObjectWriter.Result in
            var s = try owned(tx, id, caller)
            let schema = try Schemas.load("_Session", tx)
            // Ownership was checked above; the session's ACL is the owner's own.
            s.acl = s.acl ?? [:]
            return try ObjectWriter(tx: tx, caller: .master, config: config).update("_Session", id, w, loaded: (s, schema))
        }
        return ClassesRoutes.updatedReply(c, result)
    }

    static func delete(_ c: ParseContext, _ id: String) throws -> ParseReply {
        if c.caller.userId == nil && !c.caller.isMaster { throw ParseError.invalidSessionToken }
        let caller = c.caller
        try c.write { tx in
            _ = try owned(tx, id, caller)
            try tx.delete("_Session", id)
        }
        return .empty
    }
}
