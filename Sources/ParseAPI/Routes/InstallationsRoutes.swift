import Core

/// `/installations` (class `_Installation`, spec §12) with Parse Server's de-duplication rules.
enum InstallationsRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/installations", ParseRoutes.readOnly("create")) { c in try create(c) }
        t.add(.get, "/installations", ParseRoutes.batchableRead) { c in try ClassesRoutes.find(c, "_Installation") }
        t.add(.get, "/installations/:objectId", ParseRoutes.batchableRead) { c in
            try ClassesRoutes.get(c, "_Installation", c.param("objectId"))
        }
        t.add(.put, "/installations/:objectId", ParseRoutes.readOnly("update")) { c in try update(c, c.param("objectId")) }
        t.add(.delete, "/installations/:objectId", ParseRoutes.readOnly("delete")) { c in
            try ClassesRoutes.delete(c, "_Installation", c.param("objectId"))
        }
    }

    static func normalized(_ body: JSONObject) -> JSONObject {
        var b = body
        if let iid = b["installationId"]?.stringValue { b["installationId"] = .string(iid.lowercased()) }
        if let dt = b["deviceToken"]?.stringValue, dt.count == 64 { b["deviceToken"] = .string(dt.lowercased()) }
        return b
    }

    static func create(_ c: ParseContext) throws -> ParseReply {
        var body = c.body
        if body["installationId"] == nil, !c.caller.isMaster, let header = c.installationId {
            body["installationId"] = .string(header)
        }
        body = normalized(body)
        let iid = body["installationId"]?.stringValue
        let token = body["deviceToken"]?.stringValue
        guard iid != nil || token != nil else {
            throw ParseError(135, "at least one ID field (deviceToken, installationId) must be specified in this operation")
        }
        let caller = c.caller, config = c.config
        let createW = try WriteRequest.create(body, className: "_Installation", config: config, caller: caller)
        var updateBody = body
        updateBody["installationId"] = nil
        let updateW = try WriteRequest.update(updateBody, className: "_Installation")
        let deviceType = body["deviceType"]
        let result = try c.write { tx -> ObjectWriter.Result in
            let writer = ObjectWriter(tx: tx, caller: caller, config: config)
            var existing: StoredObject?
            if let iid { existing = try tx.find("_Installation", path: ["installationId"], equals: .text(iid), limit: 1).first }
            if existing == nil, let token {
                let matches = try tx.find("_Installation", path: ["deviceToken"], equals: .text(token), limit: 2)
                if matches.count > 1 && iid == nil {
                    throw ParseError(132, "Must specify installationId when deviceToken matches multiple Installation objects")
                }
                if let m = matches.first, matches.count == 1, m.data["installationId"] == nil || iid == nil { existing = m }
            }
            if let existing {
                if let dt = deviceType, let old = existing.data["deviceType"], dt != old {
                    throw ParseError(136, "deviceType may not be changed in this operation")
                }
                let schema = try Schemas.load("_Installation", tx)
                return try writer.update("_Installation", existing.objectId, updateW, loaded: (existing, schema))
            }
            guard deviceType != nil else { throw ParseError(135, "deviceType must be specified in this operation") }
            let created = try writer.create("_Installation", createW)
            // A device token moving to a new installation is removed from the others (rule 4).
            if let token {
                for other in try tx.find("_Installation", path: ["deviceToken"], equals: .text(token), limit: 1000)
                where other.objectId != created.object.objectId {
                    try tx.delete("_Installation", other.objectId)
                }
            }
            return created
        }
        if result.created { return ClassesRoutes.createdReply(c, result) }
        // A create turned into an update answers with both dates (spec §12).
        return .ok(["objectId": .string(result.object.objectId), "createdAt": .string(result.object.createdAt),
                    "updatedAt": .string(result.object.updatedAt)])
    }

    static func update(_ c: ParseContext, _ id: String) throws -> ParseReply {
        let body = normalized(c.body)
        let caller = c.caller, config = c.config
        let w = try WriteRequest.update(body, className: "_Installation")
        let result = try c.write { tx -> ObjectWriter.Result in
            let writer = ObjectWriter(tx: tx, caller: caller, config: config)
            let (existing, schema) = try writer.loadWritable("_Installation", id, op: "update")
            if let newId = body["installationId"], let old = existing.data["installationId"], newId != old {
                throw ParseError(136, "installationId may not be changed in this operation")
            }
            if let dt = body["deviceType"], let old = existing.data["deviceType"], dt != old {
                throw ParseError(136, "deviceType may not be changed in this operation")
            }
            if let tok = body["deviceToken"], let old = existing.data["deviceToken"], tok != old,
               existing.data["installationId"] == nil, body["installationId"] == nil {
                throw ParseError(136, "deviceToken may not be changed in this operation")
            }
            return try writer.update("_Installation", id, w, loaded: (existing, schema))
        }
        return ClassesRoutes.updatedReply(c, result)
    }
}
