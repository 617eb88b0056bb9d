import Core

/// The caller's access terms (spec §5) in SQL: the ACL read filter over `o.rperm` (the object's readers
/// as a JSON array, NULL for public objects) and pointer permissions.
extension SQLiteQueryRenderer {
    /// The ACL read filter for `caller` (nil for master reads), with its one parameter (at `placeholder`).
    static func aclCondition(_ caller: Caller, placeholder: String = "?") -> (String, SQLScalar)? {
        guard !caller.readsAsMaster else { return nil }
        return aclCondition(ReaderGroup(caller), placeholder: placeholder)
    }

    /// The ACL read filter for a group, with its one parameter: the group as a JSON array.
    static func aclCondition(_ group: ReaderGroup, placeholder: String = "?") -> (String, SQLScalar) {
        if placeholder == "?", case .everyone = group {
            // A caller without a user (most reads of a public app): the same text every time, built once.
            return (publicCondition.sql, publicCondition.argument)
        }
        return (aclConditionSQL(placeholder: placeholder), aclArgument(group))
    }

    /// The parameter of the ACL read filter: the group's names as a JSON array.
    static func aclArgument(_ group: ReaderGroup) -> SQLScalar {
        if case .everyone = group { return publicCondition.argument }
        return jsonList(group.names)
    }

    private static let publicCondition = (sql: aclConditionSQL(placeholder: "?"),
                                          argument: SQLScalar.text(JSON.array([.string("*")]).serialized()))

    /// The SQL of `aclCondition`, whose one parameter (at `placeholder`) is the caller's group as JSON.
    static func aclConditionSQL(placeholder: String) -> String {
        "o.rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(o.rperm) WHERE value IN "
            + "(SELECT value FROM json_each(\(placeholder))))"
    }

    /// Objects whose pointer fields (or arrays of pointers) name the user (spec §5.5).
    mutating func pointsToUser(_ fields: [String], _ userId: String) -> String {
        var terms: [String] = []
        for f in fields {
            terms.append("\(SQLPath.extract(path: [f, "objectId"])) = ?")
            terms.append("EXISTS (SELECT 1 FROM json_each(o.data, \(SQLPath.path([f]))) WHERE type = 'object' AND "
                         + "(CASE WHEN type = 'object' THEN json_extract(value, '$.objectId') END) = ?)")
            args += [.text(userId), .text(userId)]
        }
        return terms.isEmpty ? "0" : terms.joined(separator: " OR ")
    }
}
