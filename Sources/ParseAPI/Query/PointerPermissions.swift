/// SQL for pointer permissions (spec §5.5): the query is limited to objects whose named pointer fields
/// (or arrays of pointers) point to the caller.
enum PointerPermissions {
    /// SQL restricting a query to objects whose pointer fields (or arrays of pointers) name the user.
    static func pointerCondition(_ fields: [String], userId: String?, into q: inout CompiledQuery) {
        guard let userId else {
            q.add("0")
            return
        }
        var terms: [String] = []
        var args: [SQLScalar] = []
        for f in fields where FieldNames.isValid(f) {
            terms.append("\(SQLPath.extract(path: [f, "objectId"])) = ?")
            terms.append("EXISTS (SELECT 1 FROM json_each(o.data, \(SQLPath.path([f]))) WHERE type = 'object' AND "
                         + "(CASE WHEN type = 'object' THEN json_extract(value, '$.objectId') END) = ?)")
            args += [.text(userId), .text(userId)]
        }
        q.add(terms.isEmpty ? "0" : terms.joined(separator: " OR "), args)
    }
}
