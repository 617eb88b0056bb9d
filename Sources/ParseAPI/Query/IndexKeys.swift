import Core

/// Schema-declared indexes (spec §14.5): validated, and keyed on exactly what the `where` compiler
/// compares for each field (a Date's `iso`, a Pointer's `objectId`), so that stores can index the values
/// their queries read.
enum IndexKeys {
    /// The keys of an index on `spec` (`{field: 1 | -1}`, in order).
    static func keys(_ spec: JSONObject, schema: ClassSchema) throws -> [IndexKey] {
        var out: [IndexKey] = []
        for (f, dir) in spec {
            if dir.stringValue == "text" { throw ParseError(102, "Text indexes are not supported.") }
            guard let d = dir.int64Value, d == 1 || d == -1 else { throw ParseError(102, "Index direction must be 1 or -1.") }
            let target: IndexKey.Target
            switch f {
            case "objectId": target = .column(.objectId)
            case "createdAt": target = .column(.createdAt)
            case "updatedAt": target = .column(.updatedAt)
            default:
                guard FieldNames.isValid(f), let def = schema.field(f) else {
                    throw ParseError(102, "Field \(f) does not exist, cannot add index.")
                }
                switch def.type {
                case .date: target = .path([f, "iso"])
                case .pointer: target = .path([f, "objectId"])
                default: target = .path([f])
                }
            }
            out.append(IndexKey(target: target, descending: d == -1))
        }
        guard !out.isEmpty else { throw ParseError(102, "An index needs at least one field.") }
        return out
    }
}
