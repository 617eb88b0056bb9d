import Core

extension WhereCompiler {
    /// The SQL of an inner query (`SELECT <column> FROM parse_objects o WHERE ...`) as the caller sees it.
    mutating func innerSelect(className inner: String, where w: JSONObject, column: (FieldRef) -> String,
                              key: String? = nil, usage: String) throws -> String {
        guard FieldNames.isValidClassName(inner) else { throw ParseError(102, "improper usage of \(usage)") }
        guard subqueryDepth + 1 <= Self.maxSubqueryDepth else {
            throw ParseError(102, "Sub-query nesting depth exceeds the maximum of \(Self.maxSubqueryDepth).")
        }
        let innerSchema = try Schemas.load(inner, tx)
        let outcome = try CLP.check("find", className: inner, schema: innerSchema, caller: caller)
        var c = WhereCompiler(className: inner, schema: innerSchema, caller: caller,
                              protectedFields: CLP.protectedFields(className: inner, schema: innerSchema, caller: caller,
                                                                   serverWide: config.protectedFields),
                              tx: tx, config: config)
        c.subqueryDepth = subqueryDepth + 1
        c.aliasCounter = aliasCounter + 100
        let cond = try c.clauses(w, depth: 0, topLevel: false)
        var sql = "SELECT \(column(FieldRef(path: key.map { $0.split(separator: ".").map(String.init) } ?? ["objectId"], schema: innerSchema))) "
            + "FROM parse_objects o WHERE o.class = \(SQLPath.classLiteral(inner)) AND (\(cond))"
        var innerArgs: [SQLScalar] = c.args
        if let (acl, group) = Self.aclCondition(caller) {
            sql += " AND (\(acl))"
            innerArgs.append(group)
        }
        if case .pointerRestricted(let fields) = outcome {
            var q = CompiledQuery(className: inner)
            PointerPermissions.pointerCondition(fields, userId: caller.userId, into: &q)
            sql += " AND (" + q.conditions.joined(separator: " AND ") + ")"
            innerArgs += q.args
        }
        aliasCounter = c.aliasCounter + 1
        args += innerArgs
        return sql
    }

    /// `$inQuery` / `$notInQuery` operand -> the inner id selection (args already appended).
    mutating func subquery(_ op: String, _ operand: JSON) throws -> (sql: String, className: String, args: [SQLScalar]) {
        guard let o = operand.objectValue, let cls = o["className"]?.stringValue,
              let w = (o["where"] ?? .object(JSONObject())).objectValue else {
            throw ParseError(102, "improper usage of \(op)")
        }
        let start = args.count
        let sql = try innerSelect(className: cls, where: w, column: { _ in "o.id" }, usage: op)
        return (sql, cls, Array(args[start...]))
    }

    /// A pointer field pointing into the inner selection (its args were appended by `subquery`; the class
    /// name is a validated identifier, embedded as an escaped literal).
    /// An array of pointers matches when one element points into the selection; that branch repeats the
    /// inner SQL, so its arguments are appended a second time.
    mutating func pointerIn(_ ref: FieldRef, _ sub: (sql: String, className: String, args: [SQLScalar])) -> String {
        let cls = SQLPath.classLiteral(sub.className)
        let single = "(\(ref.sub("className")) = \(cls) AND \(ref.sub("objectId")) IN (\(sub.sql)))"
        if let t = ref.type, t != .array { return single }
        let alias = nextAlias()
        let element = MatchTarget(element: alias)
        args += sub.args
        return "(\(single) OR (\(ref.typeExpr) = 'array' AND EXISTS (SELECT 1 FROM json_each(o.data, \(SQLPath.path(ref.path))) "
            + "AS \(alias) WHERE \(element.sub("className")) = \(cls) AND \(element.sub("objectId")) IN (\(sub.sql)))))"
    }

    /// `$select` / `$dontSelect`: the field equals the `key` of some object of the inner query.
    mutating func select(_ op: String, _ ref: FieldRef, _ operand: JSON) throws -> String {
        guard let o = operand.objectValue, let query = o["query"]?.objectValue, let key = o["key"]?.stringValue,
              let cls = query["className"]?.stringValue, let w = (query["where"] ?? .object(JSONObject())).objectValue,
              QueryOptions.isKeyPath(key) else {
            throw ParseError(102, "improper usage of \(op)")
        }
        // The left side is appended to SQL before the inner query, so its (argument-free) text comes first.
        let left = ref.valueExpr
        let inner = try innerSelect(className: cls, where: w, column: { $0.valueExpr }, key: key, usage: op)
        return "\(left) IN (\(inner))"
    }

    /// `$relatedTo`: members of the owner's relation; empty when the caller cannot read the owner.
    mutating func relatedTo(_ value: JSON) throws -> String {
        guard let o = value.objectValue, let obj = o["object"]?.objectValue, let key = o["key"]?.stringValue,
              let cls = obj["className"]?.stringValue, let id = obj["objectId"]?.stringValue,
              FieldNames.isValid(key), FieldNames.isValidClassName(cls) else {
            throw ParseError(102, "improper usage of $relatedTo")
        }
        if !caller.readsAsMaster {
            guard let owner = try tx.object(cls, id), ACLPermissions.allows(owner.acl, "read", group: caller.aclGroup) else {
                return "0"
            }
        }
        args += [.text(cls), .text(key), .text(id)]
        return "o.id IN (SELECT member_id FROM parse_relations WHERE owner_class = ? AND field = ? AND owner_id = ?)"
    }
}
