import Auth
import Core
import QueryKit

/// Compiles a `where` object (spec §7.2-§7.6) into a `QueryPredicate`: names are validated, operands
/// normalised, subqueries planned with the caller's rights, and every error answered as Parse does. The
/// predicate names no storage engine; the store renders it.
struct WhereCompiler {
    let className: String
    let schema: ClassSchema?
    let caller: Caller
    /// The keys the caller may use on this class (sensitive and protected ones are refused).
    let keys: QueryKeyRules
    let tx: any ParseTransaction
    let config: ParseConfig
    var subqueryDepth = 0
    /// Non-literal `$regex` constraints at the top-level AND, evaluated on candidate rows by the
    /// linear-time engine (stores offer no hook for it).
    var residual: [ResidualFilter] = []
    /// The `$text` constraint, if any (for `$score`).
    var textSearch: TextSearch?
    /// The field and point of a `$nearSphere`, whose distance is the default order (spec §7.7).
    var nearOrder: (FieldRef, GeoPoint)?

    static let maxLogicalDepth = 10
    static let maxSubqueryDepth = 5
    static let maxListElements = 10_000

    init(className: String, schema: ClassSchema?, caller: Caller, protectedFields: Set<String>,
         tx: any ParseTransaction, config: ParseConfig) {
        self.className = className
        self.schema = schema
        self.caller = caller
        keys = QueryKeyRules(className: className, caller: caller, protected: protectedFields)
        self.tx = tx
        self.config = config
    }

    /// The condition of the whole `where` (always true when empty).
    mutating func compile(_ w: JSONObject) throws -> QueryPredicate {
        try clauses(w, depth: 0, topLevel: true)
    }

    mutating func clauses(_ w: JSONObject, depth: Int, topLevel: Bool) throws -> QueryPredicate {
        var parts: [QueryPredicate] = []
        parts.reserveCapacity(w.count)
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
        return .allOf(parts)
    }

    private mutating func logical(_ key: String, _ value: JSON, depth: Int) throws -> QueryPredicate {
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
        var parts: [QueryPredicate] = []
        for item in items {
            guard let o = item.objectValue else { throw ParseError(102, "Bad \(key) format - use an array value.") }
            parts.append(try clauses(o, depth: depth + 1, topLevel: false))
        }
        switch key {
        case "$or": return .anyOf(parts)
        case "$and": return .allOf(parts)
        default: return .noneOf(parts)
        }
    }

    /// Key validation of spec §7.2 and §5.6, then the clause itself.
    private mutating func fieldClause(_ key: String, _ value: JSON, topLevel: Bool) throws -> QueryPredicate {
        guard Self.isQueryKey(key) else { throw ParseError(105, "Invalid key name: \(key)") }
        let path = key.split(asciiByte: UInt8(ascii: ".")).map(String.init)
        guard let first = path.first else { throw ParseError(105, "Invalid key name: \(key)") }
        if first == "ACL" { throw ParseError(102, "Cannot query on ACL.") }
        try keys.check(key, first: first)
        if className == "_Session", first == "sessionToken" {
            guard path.count == 1, let token = value.stringValue else {
                throw ParseError(102, "sessionToken may only be compared with a string.")
            }
            return .storedText(path: ["_token_hash"], equals: TokenHasher.hash(token))
        }
        let ref = FieldRef(path: path, schema: schema)
        if ref.isPointerSubpath { return .constant(false) }
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
}
