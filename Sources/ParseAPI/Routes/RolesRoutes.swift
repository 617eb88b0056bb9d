import Core

/// `/roles` (class `_Role`, spec §11): a unique immutable name, an ACL, `users` and `roles` relations.
enum RolesRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/roles", ParseRoutes.readOnly("create")) { c in try create(c) }
        t.add(.get, "/roles", ParseRoutes.batchableRead) { c in try ClassesRoutes.find(c, "_Role") }
        t.add(.get, "/roles/:objectId", ParseRoutes.batchableRead) { c in try ClassesRoutes.get(c, "_Role", c.param("objectId")) }
        t.add(.put, "/roles/:objectId", ParseRoutes.readOnly("update")) { c in try update(c, c.param("objectId")) }
        t.add(.delete, "/roles/:objectId", ParseRoutes.readOnly("delete")) { c in
            try ClassesRoutes.delete(c, "_Role", c.param("objectId"))
        }
    }

    static func create(_ c: ParseContext) throws -> ParseReply {
        guard let nameValue = c.body["name"], !nameValue.isNull else { throw ParseError(111, "name is required.") }
        guard c.body["ACL"] != nil else { throw ParseError(111, "ACL is required.") }
        guard let name = nameValue.stringValue, RoleName.isValid(name) else {
            throw ParseError(139, "A role's name can only contain alphanumeric characters, _, -, and spaces.")
        }
        return try ClassesRoutes.createObject(c, "_Role")
    }

    static func update(_ c: ParseContext, _ id: String) throws -> ParseReply {
        if c.body["name"] != nil {
            let current = try c.read { tx in try tx.object("_Role", id) }
            if current == nil || current?.data["name"] != c.body["name"] {
                if current == nil { throw ParseError.objectNotFound }
                throw ParseError(139, "A role's name can only be set before it has been saved.")
            }
        }
        let w = try WriteRequest.update(c.body, className: "_Role")
        let caller = c.caller, config = c.config
        let result = try c.write { tx in try ObjectWriter(tx: tx, caller: caller, config: config).update("_Role", id, w) }
        return ClassesRoutes.updatedReply(c, result)
    }
}
