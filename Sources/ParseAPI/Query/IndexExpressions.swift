import Core

/// Schema-declared indexes (spec §14.5) become SQLite expression indexes on exactly the expressions the
/// `where` compiler emits, so the query planner can use them.
enum IndexExpressions {
    /// The SQL expressions an index on `fields` uses: exactly what the query compiler emits.
    static func indexExpressions(_ spec: JSONObject, schema: ClassSchema) throws -> [String] {
        var out: [String] = []
        for (f, dir) in spec {
            if dir.stringValue == "text" { throw ParseError(102, "Text indexes are not supported.") }
            guard let d = dir.int64Value, d == 1 || d == -1 else { throw ParseError(102, "Index direction must be 1 or -1.") }
            var expr: String
            switch f {
            case "objectId": expr = "id"
            case "createdAt": expr = "created_at"
            case "updatedAt": expr = "updated_at"
            default:
                guard FieldNames.isValid(f), let def = schema.field(f) else {
                    throw ParseError(102, "Field \(f) does not exist, cannot add index.")
                }
                switch def.type {
                case .date: expr = SQLPath.extract(column: "data", path: [f, "iso"])
                case .pointer: expr = SQLPath.extract(column: "data", path: [f, "objectId"])
                default: expr = SQLPath.extract(column: "data", path: [f])
                }
            }
            out.append(expr + (d == -1 ? " DESC" : ""))
        }
        guard !out.isEmpty else { throw ParseError(102, "An index needs at least one field.") }
        return out
    }
}
