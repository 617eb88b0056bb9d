import Core

/// `/classes/:className[/:objectId]`: objects CRUD and queries (spec §6, §7). System classes reached
/// through `/classes/_User` and friends get the same special rules as their own routes.
enum ClassesRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/classes/:className", ParseRoutes.readOnly("create")) { c in try create(c, c.param("className")) }
        t.add(.get, "/classes/:className", ParseRoutes.batchableRead) { c in try find(c, c.param("className")) }
        t.add(.get, "/classes/:className/:objectId", ParseRoutes.batchableRead) { c in
            try get(c, c.param("className"), c.param("objectId"))
        }
        t.add(.put, "/classes/:className/:objectId", ParseRoutes.readOnly("update")) { c in
            try update(c, c.param("className"), c.param("objectId"))
        }
        t.add(.delete, "/classes/:className/:objectId", ParseRoutes.readOnly("delete")) { c in
            try delete(c, c.param("className"), c.param("objectId"))
        }
    }

    static func create(_ c: ParseContext, _ cls: String) throws -> ParseReply {
        try FieldNames.checkClassName(cls)
        switch cls {
        case "_User": return try UsersRoutes.signUp(c)
        case "_Role": return try RolesRoutes.create(c)
        case "_Session": return try SessionsRoutes.create(c)
        case "_Installation": return try InstallationsRoutes.create(c)
        default: return try createObject(c, cls)
        }
    }

    static func createObject(_ c: ParseContext, _ cls: String, acl: JSONObject?? = nil) throws -> ParseReply {
        let caller = c.caller, config = c.config, url = c.serverURL, appId = c.app.appId
        if let ready = c.preparedCreate, ready.className == cls, c.transaction != nil {
            // A transactional batch item computed before the batch's job.
            let result = try c.write { tx in
                try ObjectWriter(tx: tx, caller: caller, config: config)
                    .create(cls, ready.request, acl: acl, prepared: ready.prepared, staleFallsBack: true)
            }
            return createdReply(serverURL: url, appId: appId, result)
        }
        let w = try WriteRequest.create(c.body, className: cls, config: c.config, caller: c.caller)
        // A large body (a batch item's size is not known: always) is computed before it is queued.
        if c.isBatchItem || c.http.body.count >= PreparedWrites.threshold {
            return try c.writePrepared(prepare: { PreparedCreate(w, schema: try c.read { try Schemas.load(cls, $0) }, config: config) },
                                       job: { tx, prepared in
                                           try ObjectWriter(tx: tx, caller: caller, config: config)
                                               .create(cls, w, acl: acl, prepared: prepared)
                                       }, reply: { createdReply(serverURL: url, appId: appId, $0) })
        }
        return try c.writeParked({ tx in try ObjectWriter(tx: tx, caller: caller, config: config).create(cls, w, acl: acl) },
                                 reply: { createdReply(serverURL: url, appId: appId, $0) })
    }

    static func createdReply(_ c: ParseContext, _ result: ObjectWriter.Result) -> ParseReply {
        createdReply(serverURL: c.serverURL, appId: c.app.appId, result)
    }

    static func createdReply(serverURL: String, appId: String, _ result: ObjectWriter.Result) -> ParseReply {
        var body: JSONObject = ["objectId": .string(result.object.objectId), "createdAt": .string(result.object.createdAt)]
        let renderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: nil)
        for (k, v) in result.echo { body[k] = renderer.withFileURLs(v) }
        let prefix = result.object.className == "_User" ? "/users/" : "/classes/\(result.object.className)/"
        return .created(body, location: serverURL + prefix + result.object.objectId)
    }

    static func updatedReply(_ c: ParseContext, _ result: ObjectWriter.Result) -> ParseReply {
        updatedReply(serverURL: c.serverURL, appId: c.app.appId, result)
    }

    static func updatedReply(serverURL: String, appId: String, _ result: ObjectWriter.Result) -> ParseReply {
        var body: JSONObject = ["updatedAt": .string(result.object.updatedAt)]
        let renderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: nil)
        for (k, v) in result.echo { body[k] = renderer.withFileURLs(v) }
        return .ok(body)
    }

    static func find(_ c: ParseContext, _ cls: String) throws -> ParseReply {
        try FieldNames.checkClassName(cls)
        // Before the parameters are validated, as Parse Server does; the query checks it again with the rest.
        try ClassReadAccess.checkClass(cls, caller: c.caller, operation: "find")
        let q = try QueryOptions.parse(c.params, config: c.config)
        let caller = c.caller, config = c.config, url = c.serverURL, appId = c.app.appId, token = c.sessionToken
        // The budget starts now: a wait for a heavy-read place (`readQuery`) is part of it.
        let deadline = Deadline.after(seconds: config.queryTimeoutSeconds)
        let out = try withTextIndexes(c) {
            try c.readQuery(deadline: deadline) { tx, heavyReads in
                var runner = QueryRunner(tx: tx, caller: caller, config: config, serverURL: url, appId: appId)
                runner.currentToken = token
                runner.deadline = deadline
                runner.heavyReads = heavyReads
                // A batch item too: `ParseReply.jsonBody` parses the bytes once, as decoding the rows would.
                runner.serializedResults = true
                return try runner.find(cls, q)
            }
        }
        if let objects = out.serialized {
            // The same text as the JSONObject below would serialize to.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(objects.count + 40)
            bytes.append(contentsOf: #"{"results":["#.utf8)
            bytes.append(contentsOf: objects)
            bytes.append(UInt8(ascii: "]"))
            if let n = out.count { bytes.append(contentsOf: #","count":\#(n)"#.utf8) }
            bytes.append(UInt8(ascii: "}"))
            return .ok(serialized: bytes)
        }
        var body: JSONObject = ["results": .array(out.results.map { .object($0) })]
        if let n = out.count { body["count"] = .number(JSONNumber(n)) }
        return .ok(body)
    }

    /// Runs a query, creating a missing full-text index first when a `$text` constraint needs one.
    static func withTextIndexes<T>(_ c: ParseContext, _ body: () throws -> T) throws -> T {
        for _ in 0..<3 {
            do {
                return try body()
            } catch let missing as TextIndexMissing {
                try c.write { tx in try tx.enableText(missing.className, missing.field) }
            }
        }
        return try body()
    }

    static let getParameters: Set<String> = ["keys", "include", "excludeKeys", "readPreference", "includeReadPreference",
                                             "subqueryReadPreference"]

    static func get(_ c: ParseContext, _ cls: String, _ id: String) throws -> ParseReply {
        try FieldNames.checkClassName(cls)
        for k in c.params.keys where !getParameters.contains(k) { throw ParseError(102, "Improper encode of parameter") }
        try ClassReadAccess.checkClass(cls, caller: c.caller, operation: "get")
        guard FieldNames.isPlausibleObjectId(id) else { throw ParseError.objectNotFound }
        var params = c.params
        for k in ["readPreference", "includeReadPreference", "subqueryReadPreference"] { params[k] = nil }
        if params.isEmpty, !cls.hasPrefix("_"), let reply = try plainGet(c, cls, id) { return reply }
        var q = try QueryOptions.parse(params, config: c.config)
        q.whereClause = ["objectId": .string(id)]
        q.limit = 1
        let caller = c.caller, config = c.config, url = c.serverURL, appId = c.app.appId, token = c.sessionToken
        let out = try c.read { tx in
            var runner = QueryRunner(tx: tx, caller: caller, config: config, serverURL: url, appId: appId)
            runner.currentToken = token
            return try runner.find(cls, q, op: "get")
        }
        guard var obj = out.results.first else { throw ParseError.objectNotFound }
        if cls == "_User", id == c.caller.userId, let token = c.sessionToken { obj["sessionToken"] = .string(token) }
        return .ok(obj)
    }

    /// A GET by id without `keys`, `include` or `excludeKeys` on a class of the app's own: the schema and the
    /// object come from one statement, and the checks of the general query path (`QueryRunner.find` with
    /// `where={"objectId": id}` and `limit=1`) are applied to that one row in the same order, with the
    /// same errors. Nil, so that the general path answers, when there is no such object (the errors for a
    /// missing class or a refused `get` come first there) or when the class-level permissions restrict
    /// `get` to pointer fields. System classes (`_User`, `_Session`, ...) always take the general path.
    static func plainGet(_ c: ParseContext, _ cls: String, _ id: String) throws -> ParseReply? {
        let caller = c.caller, config = c.config
        guard let found = try c.readStatement({ tx in try tx.schemaAndObject(cls, id, caller: caller) }) else { return nil }
        let schema = found.schema
        try Schemas.requireReachable(schema, className: cls, caller: caller, config: config)
        guard try CLP.check("get", className: cls, schema: schema, caller: caller) == .allowed else { return nil }
        guard schema != nil, found.readable else { throw ParseError.objectNotFound }
        let lists = CLP.protectedLists(className: cls, schema: schema, caller: caller, serverWide: config.protectedFields)
        if (lists.base ?? []).isEmpty, lists.userFields.isEmpty, ObjectRenderer.addsNoFields(schema),
           let bytes = PlainObjectBytes.render(found.stored) {
            return .ok(serialized: bytes)
        }
        let object = try found.stored.decoded()
        var renderer = ObjectRenderer(serverURL: c.serverURL, appId: c.app.appId, schema: schema)
        renderer.protectedFields = lists.base ?? []
        if !lists.userFields.isEmpty {
            renderer.protectedFields = CLP.protectedFields(for: object, base: lists.base, userFields: lists.userFields,
                                                           caller: caller)
        }
        return .ok(renderer.render(object))
    }

    static func update(_ c: ParseContext, _ cls: String, _ id: String) throws -> ParseReply {
        try FieldNames.checkClassName(cls)
        switch cls {
        case "_User": return try UsersRoutes.update(c, id)
        case "_Role": return try RolesRoutes.update(c, id)
        case "_Session": return try SessionsRoutes.update(c, id)
        case "_Installation": return try InstallationsRoutes.update(c, id)
        default: break
        }
        let w = try WriteRequest.update(c.body, className: cls)
        let caller = c.caller, config = c.config, url = c.serverURL, appId = c.app.appId
        // A large stored object is read, changed and serialized before the write is queued.
        if c.transaction == nil, FieldNames.isPlausibleObjectId(id),
           let row = try c.readStatement({ try $0.storedObject(cls, id) }), row.data.count >= PreparedWrites.threshold {
            var base: StoredText? = row
            return try c.writePrepared(prepare: { () -> PreparedUpdate? in
                                           let current = try base ?? c.readStatement { try $0.storedObject(cls, id) }
                                           base = nil
                                           return current.flatMap { PreparedUpdate(w, base: $0) }
                                       },
                                       job: { tx, prepared in
                                           try ObjectWriter(tx: tx, caller: caller, config: config)
                                               .update(cls, id, w, prepared: prepared)
                                       }, reply: { updatedReply(serverURL: url, appId: appId, $0) })
        }
        return try c.writeParked({ tx in try ObjectWriter(tx: tx, caller: caller, config: config).update(cls, id, w) },
                                 reply: { updatedReply(serverURL: url, appId: appId, $0) })
    }

    static func delete(_ c: ParseContext, _ cls: String, _ id: String) throws -> ParseReply {
        try FieldNames.checkClassName(cls)
        switch cls {
        case "_User": return try UsersRoutes.delete(c, id)
        case "_Session": return try SessionsRoutes.delete(c, id)
        case "_Installation":
            if !c.caller.readsAsMaster {
                throw ParseError(119, "Clients aren't allowed to perform the delete operation on the installation collection.")
            }
        default: break
        }
        let caller = c.caller, config = c.config
        return try c.writeParked({ tx in _ = try ObjectWriter(tx: tx, caller: caller, config: config).delete(cls, id) },
                                 reply: { _ in .empty })
    }
}
