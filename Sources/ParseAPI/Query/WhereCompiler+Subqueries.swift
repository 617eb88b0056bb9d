import Core

extension WhereCompiler {
    /// An inner query on `inner` as the caller sees it: the same rights as a direct find of that class
    /// (`ClassReadAccess`: system-class rules, class existence, CLP `find`), its `where` compiled with the
    /// inner class's protected fields, the selected `key` checked as a `where` key would be (its values are
    /// what the outer query compares), and the caller's access terms attached.
    mutating func innerQuery(className inner: String, where w: JSONObject, key: String? = nil, usage: String) throws -> Subquery {
        guard FieldNames.isValidClassName(inner) else { throw ParseError(102, "improper usage of \(usage)") }
        guard subqueryDepth + 1 <= Self.maxSubqueryDepth else {
            throw ParseError(102, "Sub-query nesting depth exceeds the maximum of \(Self.maxSubqueryDepth).")
        }
        let innerSchema = try Schemas.load(inner, tx)
        let access = ClassReadAccess(className: inner, schema: innerSchema, caller: caller, config: config, operation: "find")
        try access.require()
        if let key { try access.keys.check(key) }
        var c = WhereCompiler(className: inner, schema: innerSchema, caller: caller, protectedFields: access.protected,
                              tx: tx, config: config)
        c.subqueryDepth = subqueryDepth + 1
        let predicate = try c.clauses(w, depth: 0, topLevel: false)
        let keyRef = FieldRef(path: key.map { $0.split(separator: ".").map(String.init) } ?? ["objectId"], schema: innerSchema)
        return Subquery(className: inner, predicate: predicate, access: access.terms, key: keyRef)
    }

    /// `$inQuery` / `$notInQuery` operand -> the inner query selecting object ids.
    mutating func subquery(_ op: String, _ operand: JSON) throws -> Subquery {
        guard let o = operand.objectValue, let cls = o["className"]?.stringValue,
              let w = (o["where"] ?? .object(JSONObject())).objectValue else {
            throw ParseError(102, "improper usage of \(op)")
        }
        return try innerQuery(className: cls, where: w, usage: op)
    }

    /// `$select` / `$dontSelect`: the field equals the `key` of some object of the inner query.
    mutating func select(_ op: String, _ ref: FieldRef, _ operand: JSON) throws -> QueryPredicate {
        guard let o = operand.objectValue, let query = o["query"]?.objectValue, let key = o["key"]?.stringValue,
              let cls = query["className"]?.stringValue, let w = (query["where"] ?? .object(JSONObject())).objectValue,
              QueryOptions.isKeyPath(key) else {
            throw ParseError(102, "improper usage of \(op)")
        }
        return .selectedBy(ref, try innerQuery(className: cls, where: w, key: key, usage: op))
    }

    /// `$relatedTo`: members of the owner's relation. The relation is a field of the owner, so it is read
    /// with the owner's rights, as Parse Server does: a protected relation field is refused like a `where`
    /// on it (119), and an owner the caller may not get (CLP, ACL, pointer permissions, or no such object)
    /// has no members.
    mutating func relatedTo(_ value: JSON) throws -> QueryPredicate {
        guard let o = value.objectValue, let obj = o["object"]?.objectValue, let key = o["key"]?.stringValue,
              let cls = obj["className"]?.stringValue, let id = obj["objectId"]?.stringValue,
              FieldNames.isValid(key), FieldNames.isValidClassName(cls) else {
            throw ParseError(102, "improper usage of $relatedTo")
        }
        if !caller.readsAsMaster {
            let owner = ClassReadAccess(className: cls, schema: try Schemas.load(cls, tx), caller: caller, config: config,
                                        operation: "get")
            try owner.keys.check(key)
            guard owner.refusal == nil, let found = try tx.object(cls, id), owner.canRead(found) else { return .constant(false) }
        }
        return .memberOf(RelationField(className: cls, field: key), ownerId: id)
    }
}
