import Core
import QueryKit

/// Renders a `QueryPlan` as SQLite SQL over `parse_objects` (table alias `o`), the only place where the
/// Parse API's query SQL is written: JSON fields are read with `json_extract`/`json_type`, arrays and
/// bound lists are expanded with `json_each`, `$text` is an FTS5 `MATCH`.
///
/// Values are bound parameters, in the order their `?` appear; a list is bound as one JSON text. Names
/// come from validated identifiers only, and are quoted anyway (`SQLPath`). Schema-declared indexes are
/// built on exactly the expressions rendered here (`indexExpression`), so that the planner can use them.
struct SQLiteQueryRenderer {
    /// The parameters of the text rendered so far.
    var args: [SQLScalar] = []
    /// The last `json_each` alias handed out (`je1`, `je2`, ...); a subquery's aliases start 100 further.
    var aliasCounter = 0

    /// The whole plan: its conditions, order and page.
    static func compile(_ plan: QueryPlan) -> CompiledQuery {
        var r = SQLiteQueryRenderer()
        var q = CompiledQuery(className: plan.className)
        q.conditions.reserveCapacity(plan.conditions.count)
        for c in plan.conditions { q.conditions.append(r.condition(c)) }
        q.args = r.args
        for key in plan.order { q.order.append(orderTerm(key, into: &q.orderArgs)) }
        q.limit = plan.limit
        q.skip = plan.skip
        return q
    }

    /// The SQL of one condition; its parameters are appended to `args`.
    mutating func condition(_ p: QueryPredicate) -> String {
        switch p {
        case .constant(let holds): return holds ? "1" : "0"
        case .allOf(let parts): return joined(parts, " AND ", empty: "1")
        case .anyOf(let parts): return joined(parts, " OR ", empty: "0")
        case .noneOf(let parts):
            guard !parts.isEmpty else { return "1" }
            // A part that is NULL (a comparison with a missing value) counts as not holding.
            return "NOT (" + parts.map { "IFNULL((\(condition($0))), 0)" }.joined(separator: " OR ") + ")"
        case .not(let part): return "NOT IFNULL(\(condition(part)), 0)"
        case .column(let column, let op, let text):
            args.append(.text(text))
            return "\(Self.columnExpr(column)) \(Self.symbol(op)) ?"
        case .columnIn(let column, let texts):
            args.append(Self.jsonList(texts))
            return "\(Self.columnExpr(column)) IN (SELECT value FROM json_each(?))"
        case .value(let ref, let op, let atom):
            return arrayAware(ref) { r, t in r.scalar(t, atom, Self.symbol(op)) }
        case .valueIn(let ref, let atoms):
            let pointerField: Bool
            if case .pointer? = ref.type { pointerField = true } else { pointerField = false }
            return arrayAware(ref) { r, t in r.listMatch(t, atoms, pointerField: pointerField) }
        case .pointerId(let ref, let op, let id):
            args.append(.text(id))
            return "\(ref.sqlMember("objectId")) \(Self.symbol(op)) ?"
        case .exists(let ref, let flag):
            let present = "(\(ref.sqlType) IS NOT NULL AND \(ref.sqlType) != 'null')"
            return flag ? present : "NOT \(present)"
        case .containsAll(let ref, let elements): return containsAll(ref, elements)
        case .containedBy(let ref, let atoms): return containedBy(ref, atoms)
        case .matchesLiteral(let ref, let lit):
            if ref.isColumn { return literalMatch(MatchTarget(ref), lit) }
            return arrayAware(ref) { r, t in r.literalMatch(t, lit) }
        case .storedText(let path, let text):
            args.append(.text(text))
            return "\(SQLPath.extract(path: path)) = ?"
        case .relationHas(let relation, let member):
            args += [.text(relation.className), .text(relation.field), .text(member)]
            return "o.id IN (SELECT owner_id FROM parse_relations WHERE owner_class = ? AND field = ? AND member_id = ?)"
        case .relationHasAny(let relation, let members):
            args += [.text(relation.className), .text(relation.field), Self.jsonList(members)]
            return "o.id IN (SELECT owner_id FROM parse_relations WHERE owner_class = ? AND field = ? AND member_id IN "
                + "(SELECT value FROM json_each(?)))"
        case .memberOf(let relation, let ownerId):
            args += [.text(relation.className), .text(relation.field), .text(ownerId)]
            return "o.id IN (SELECT member_id FROM parse_relations WHERE owner_class = ? AND field = ? AND owner_id = ?)"
        case .pointsInto(let ref, let sub): return pointsInto(ref, sub)
        case .selectedBy(let ref, let sub):
            // The left side comes first in the text; it has no parameters.
            let left = ref.sqlValue
            return "\(left) IN (\(subquery(sub).sql))"
        case .textSearch(let search):
            args.append(.text(Self.ftsExpression(search)))
            let table = SQLiteTransaction.ftsTable(search.className, search.field)
            return "o.seq IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)"
        case .near(let ref, let point, let distances): return near(ref, point, distances)
        case .withinBox(let ref, let sw, let ne): return withinBox(ref, sw, ne)
        case .withinPolygon(let ref, let points):
            return "\(ref.sqlMember("__type")) = 'GeoPoint' AND "
                + pointInPolygon(lat: ref.sqlMember("latitude"), lng: ref.sqlMember("longitude"), points)
        case .withinSphere(let ref, let center, let radius):
            let expr = Self.distanceExpr(ref, center, into: &args)
            args.append(.real(radius))
            return "\(ref.sqlMember("__type")) = 'GeoPoint' AND \(expr) <= ?"
        case .polygonContains(let ref, let point): return polygonContains(ref, point)
        case .readable(let group):
            let (sql, arg) = Self.aclCondition(group)
            args.append(arg)
            return sql
        case .pointsToUser(let fields, let userId): return pointsToUser(fields, userId)
        }
    }

    /// Parts in parentheses, joined by `separator`; `empty` when there are none.
    private mutating func joined(_ parts: [QueryPredicate], _ separator: String, empty: String) -> String {
        switch parts.count {
        case 0: return empty
        case 1: return "(" + condition(parts[0]) + ")"
        default: return parts.map { "(" + condition($0) + ")" }.joined(separator: separator)
        }
    }

    mutating func nextAlias() -> String {
        aliasCounter += 1
        return "je\(aliasCounter)"
    }

    /// SQL writes the comparisons as their symbols.
    static func symbol(_ op: ComparisonOperator) -> String { op.symbol }

    static func columnExpr(_ column: Column) -> String {
        switch column {
        case .objectId: return "o.id"
        case .createdAt: return "o.created_at"
        case .updatedAt: return "o.updated_at"
        }
    }

    /// Texts bound as one JSON array, for `json_each(?)`.
    static func jsonList(_ texts: [String]) -> SQLScalar { .text(JSON.array(texts.map { .string($0) }).serialized()) }

    /// An ORDER BY term; its parameters are appended to `orderArgs`.
    static func orderTerm(_ key: SortKey, into orderArgs: inout [SQLScalar]) -> String {
        switch key {
        case .field(let ref, let member, let descending):
            return (member.map(ref.sqlMember) ?? ref.sqlValue) + (descending ? " DESC" : " ASC")
        case .textScore(let search):
            let table = SQLiteTransaction.ftsTable(search.className, search.field)
            orderArgs.append(.text(ftsExpression(search)))
            // bm25 is lower for better matches.
            return "(SELECT bm25(\(table)) FROM \(table) WHERE \(table) MATCH ? AND \(table).rowid = o.seq) ASC"
        case .distance(let ref, let point):
            return distanceExpr(ref, point, into: &orderArgs) + " ASC"
        }
    }

    /// The expression a declared index is built on: exactly what queries on the field compare (the
    /// table's own column names, which SQLite matches with the queries' `o.` ones).
    static func indexExpression(_ key: IndexKey) -> String {
        let expr: String
        switch key.target {
        case .column(.objectId): expr = "id"
        case .column(.createdAt): expr = "created_at"
        case .column(.updatedAt): expr = "updated_at"
        case .path(let path): expr = SQLPath.extract(column: "data", path: path)
        }
        return expr + (key.descending ? " DESC" : "")
    }
}
