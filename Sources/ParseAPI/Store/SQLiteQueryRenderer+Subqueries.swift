/// Inner queries (`$inQuery`, `$notInQuery`, `$select`, `$dontSelect`) as `IN (SELECT ...)` over
/// `parse_objects`, with the caller's access terms on the inner class.
extension SQLiteQueryRenderer {
    /// The inner SELECT of `sub`, and the parameters it appended to `args` (in order).
    mutating func subquery(_ sub: Subquery) -> (sql: String, args: [SQLScalar]) {
        let start = args.count
        // The inner query's aliases start further on, so that they never clash with the outer ones.
        aliasCounter += 100
        let cond = condition(sub.predicate)
        var sql = "SELECT \(sub.key.sqlValue) FROM parse_objects o WHERE o.class = \(SQLPath.classLiteral(sub.className)) "
            + "AND (\(cond))"
        for term in sub.access { sql += " AND (" + condition(term) + ")" }
        aliasCounter += 1
        return (sql, Array(args[start...]))
    }

    /// A pointer field pointing into the inner selection (the class name is a validated identifier,
    /// embedded as an escaped literal). An array of pointers matches when one element points into the
    /// selection; that branch repeats the inner SQL, so its parameters are appended a second time.
    mutating func pointsInto(_ ref: FieldRef, _ sub: Subquery) -> String {
        let inner = subquery(sub)
        let cls = SQLPath.classLiteral(sub.className)
        let single = "(\(ref.sqlMember("className")) = \(cls) AND \(ref.sqlMember("objectId")) IN (\(inner.sql)))"
        if ref.isScalar { return single }
        let alias = nextAlias()
        let element = MatchTarget(element: alias)
        args += inner.args
        return "(\(single) OR (\(ref.sqlType) = 'array' AND EXISTS (SELECT 1 FROM json_each(o.data, \(ref.sqlPath)) "
            + "AS \(alias) WHERE \(element.sub("className")) = \(cls) AND \(element.sub("objectId")) IN (\(inner.sql)))))"
    }
}
