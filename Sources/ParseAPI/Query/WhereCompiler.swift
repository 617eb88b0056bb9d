import Core

/// Compiles a `where` object (spec §7.2-§7.6) into SQL over `parse_objects` (alias `o`). Values are bound
/// parameters; lists are bound as one JSON text expanded with `json_each`; names are validated first.
struct WhereCompiler {
    let className: String
    let schema: ClassSchema?
    let caller: Caller
    let protectedFields: Set<String>
    let tx: any ParseTransaction
    let config: ParseConfig
    var subqueryDepth = 0
    var args: [SQLScalar] = []
    /// Non-literal `$regex` constraints at the top-level AND, evaluated on candidate rows by the
    /// linear-time engine (the storage layer offers no SQL function hook).
    var residual: [(StoredObject) -> Bool] = []
    /// The `$text` constraint, if any: field and FTS5 match expression (for `$score`).
    var textSearch: (field: String, match: String)?
    var aliasCounter = 0
    /// The distance expression of a `$nearSphere`, used as the default order (spec §7.7).
    var nearOrder: (String, [SQLScalar])?

    static let maxLogicalDepth = 10
    static let maxSubqueryDepth = 5
    static let maxListElements = 10_000

    init(className: String, schema: ClassSchema?, caller: Caller, protectedFields: Set<String>,
         tx: any ParseTransaction, config: ParseConfig) {
        self.className = className
        self.schema = schema
        self.caller = caller
        self.protectedFields = protectedFields
        self.tx = tx
        self.config = config
    }

    /// The SQL condition for the whole `where` ("1" when empty).
    mutating func compile(_ w: JSONObject) throws -> String {
        try clauses(w, depth: 0, topLevel: true)
    }

    mutating func clauses(_ w: JSONObject, depth: Int, topLevel: Bool) throws -> String {
        var parts: [String] = []
        for (key, value) in w {
            switch key {
            case "$or", "$and", "$nor":
                parts.append(try logical(key, value, depth: depth))
            case "$relatedTo":
                parts.append(try relatedTo(value))
            default:
                parts.append(try fieldClause(key, value, topLevel: topLevel))
            }
        }
        return parts.isEmpty ? "1" : parts.map { "(\($0))" }.joined(separator: " AND ")
    }

    private mutating func logical(_ key: String, _ value: JSON, depth: Int) throws -> String {
        guard let items = value.arrayValue, key != "$nor" || !items.isEmpty else {
            switch key {
            case "$or": throw ParseError(102, "Bad $or format - use an array value.")
            case "$and": throw ParseError(102, "Bad $and format - use an array value.")
            default: throw ParseError(102, "Bad $nor format - use an array of at least 1 value.")
            }
        }
        guard depth + 1 <= Self.maxLogicalDepth else {
            throw ParseError(102, "Query condition nesting depth exceeds the maximum of \(Self.maxLogicalDepth).")
        }
        var parts: [String] = []
        for item in items {
            guard let o = item.objectValue else { throw ParseError(102, "Bad \(key) format - use an array value.") }
            parts.append("(" + (try clauses(o, depth: depth + 1, topLevel: key == "$and" && false)) + ")")
        }
        if parts.isEmpty { return key == "$or" ? "0" : "1" }
        switch key {
        case "$or": return parts.joined(separator: " OR ")
        case "$and": return parts.joined(separator: " AND ")
        default: return "NOT (" + parts.map { "IFNULL(\($0), 0)" }.joined(separator: " OR ") + ")"
        }
    }

    /// Key validation of spec §7.2 and §5.6, then the clause itself.
    private mutating func fieldClause(_ key: String, _ value: JSON, topLevel: Bool) throws -> String {
        guard Self.isQueryKey(key) else { throw ParseError(105, "Invalid key name: \(key)") }
        let path = key.split(asciiByte: UInt8(ascii: ".")).map(String.init)
        guard let first = path.first else { throw ParseError(105, "Invalid key name: \(key)") }
        if first == "ACL" { throw ParseError(102, "Cannot query on ACL.") }
        if className == "_User", first == "password" || first == "authData", !caller.isMaster || first == "password" {
            throw ParseError(105, "Invalid key name: \(key)")
        }
        if protectedFields.contains(first) {
            throw ParseError(119, "This user is not allowed to query \(key) on class \(className)")
        }
        if className == "_Session", first == "sessionToken" {
            guard path.count == 1, let token = value.stringValue else {
                throw ParseError(102, "sessionToken may only be compared with a string.")
            }
            args.append(.text(TokenHasher.hash(token)))
            return "\(SQLPath.extract(path: ["_token_hash"])) = ?"
        }
        let ref = FieldRef(path: path, schema: schema)
        if ref.isPointerSubpath { return "0" }
        if case .object(let o) = value, o.keys.contains(where: { $0.hasPrefix("$") }) {
            return try operators(ref, o, topLevel: topLevel)
        }
        return try equality(ref, value)
    }

    /// `^[a-zA-Z][a-zA-Z0-9_.]*$`
    static func isQueryKey(_ k: String) -> Bool {
        guard let f = k.utf8.first, FieldNames.isAlpha(f) else { return false }
        // One pass over the bytes: Foundation's `contains("..")` went through NSString on every query key.
        var previous: UInt8 = 0
        for b in k.utf8 {
            guard FieldNames.isAlpha(b) || (b >= 48 && b <= 57) || b == 95 || b == 46 else { return false }
            if b == 46 && previous == 46 { return false }
            previous = b
        }
        return previous != 46
    }

    mutating func nextAlias() -> String {
        aliasCounter += 1
        return "je\(aliasCounter)"
    }

    /// The ACL read filter for a query as the caller sees it (nil for master reads).
    static func aclCondition(_ caller: Caller, placeholder: String = "?") -> (String, SQLScalar)? {
        guard !caller.readsAsMaster else { return nil }
        if placeholder == "?", caller.userId == nil, caller.roles.isEmpty {
            // A caller without a user (most reads of a public app): its group is `["*"]`, the same text every
            // time, built once.
            return (publicCondition.sql, publicCondition.argument)
        }
        let group = JSON.array(caller.aclGroup.map { .string($0) }).serialized()
        return (aclConditionSQL(placeholder: placeholder), .text(group))
    }

    private static let publicCondition = (sql: aclConditionSQL(placeholder: "?"),
                                          argument: SQLScalar.text(JSON.array([.string("*")]).serialized()))

    /// The SQL of `aclCondition`, whose one parameter (at `placeholder`) is the caller's group as JSON.
    static func aclConditionSQL(placeholder: String) -> String {
        "o.rperm IS NULL OR EXISTS (SELECT 1 FROM json_each(o.rperm) WHERE value IN "
            + "(SELECT value FROM json_each(\(placeholder))))"
    }
}

/// A field reference in a `where`: a column (`objectId`, `createdAt`, `updatedAt`) or a JSON path.
struct FieldRef {
    enum Kind { case objectId, createdAt, updatedAt, data }
    let path: [String]
    let kind: Kind
    /// The schema type when the path is one top-level field of known type.
    let type: FieldType?
    /// True for `pointerField.x`: dotted paths through a Pointer match nothing (spec §7.4).
    let isPointerSubpath: Bool

    init(path: [String], schema: ClassSchema?) {
        self.path = path
        if path.count == 1 {
            switch path[0] {
            case "objectId": kind = .objectId
            case "createdAt": kind = .createdAt
            case "updatedAt": kind = .updatedAt
            default: kind = .data
            }
        } else {
            kind = .data
        }
        let top = path.first.flatMap { schema?.field($0)?.type }
        type = path.count == 1 ? top : nil
        if path.count > 1, case .pointer? = top { isPointerSubpath = true } else { isPointerSubpath = false }
    }

    var valueExpr: String {
        switch kind {
        case .objectId: return "o.id"
        case .createdAt: return "o.created_at"
        case .updatedAt: return "o.updated_at"
        case .data: return SQLPath.extract(path: path)
        }
    }

    var typeExpr: String {
        switch kind {
        case .data: return SQLPath.type(path: path)
        default: return "'text'"
        }
    }

    func sub(_ key: String) -> String { SQLPath.extract(path: path + [key]) }

    var isColumn: Bool { kind != .data }
}

import Auth
