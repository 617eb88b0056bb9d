import Core
import QueryKit

extension WhereCompiler {
    /// An operator object `{"$op": operand, ...}`: every key must be an operator (spec §7.3).
    mutating func operators(_ ref: FieldRef, _ o: JSONObject, topLevel: Bool) throws -> QueryPredicate {
        var parts: [QueryPredicate] = []
        let options = try regexOptions(o["$options"])
        for (op, operand) in o {
            switch op {
            case "$eq":
                if operand.objectValue?["$relativeTime"] != nil { throw Self.relativeTimeOpError }
                parts.append(try equality(ref, operand))
            case "$ne":
                if operand.objectValue?["$relativeTime"] != nil { throw Self.relativeTimeOpError }
                parts.append(.not(try equality(ref, operand)))
            case "$lt", "$lte", "$gt", "$gte":
                let comparison = ComparisonOperator(mongoName: op) ?? .equal
                let atom: Atom
                if let rt = operand.objectValue?["$relativeTime"] {
                    let isDate = ref.column == .createdAt || ref.column == .updatedAt || ref.type == .date
                    guard isDate else { throw ParseError(107, "$relativeTime can only be used with Date field") }
                    atom = .date(try RelativeTime.resolve(rt, op: op))
                } else {
                    atom = try Atom.from(operand)
                }
                parts.append(compare(ref, atom, comparison))
            case "$in":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $in value") }
                parts.append(try inList(ref, items))
            case "$nin":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $nin value") }
                parts.append(.not(try inList(ref, items)))
            case "$exists":
                let flag: Bool
                switch operand {
                case .bool(let b): flag = b
                case .number(let n) where n.doubleValue == 0 || n.doubleValue == 1: flag = n.doubleValue == 1
                default: throw ParseError(107, "bad $exists value")
                }
                // Every object has its columns.
                parts.append(ref.isColumn ? .constant(flag) : .exists(ref, flag))
            case "$all":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $all value") }
                parts.append(try all(ref, items))
            case "$containedBy":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $containedBy: should be an array") }
                parts.append(.containedBy(ref, try items.map(Atom.from)))
            case "$regex":
                guard let pattern = operand.stringValue else { throw ParseError(107, "bad regex") }
                parts.append(try regex(ref, pattern, options: options, topLevel: topLevel))
            case "$options":
                if o["$regex"] == nil { throw ParseError(107, "bad constraint: $options") }
            case "$inQuery", "$notInQuery":
                let cond = QueryPredicate.pointsInto(ref, try subquery(op, operand))
                parts.append(op == "$inQuery" ? cond : .not(cond))
            case "$text":
                parts.append(try text(ref, operand))
            case "$nearSphere":
                parts.append(try nearSphere(ref, o))
            case "$maxDistance", "$maxDistanceInRadians", "$maxDistanceInMiles", "$maxDistanceInKilometers":
                if o["$nearSphere"] == nil { throw ParseError(107, "bad constraint: \(op)") }
            case "$within":
                parts.append(try within(ref, operand))
            case "$geoWithin":
                parts.append(try geoWithin(ref, operand))
            case "$geoIntersects":
                parts.append(try geoIntersects(ref, operand))
            case "$select", "$dontSelect":
                let cond = try select(op, ref, operand)
                parts.append(op == "$select" ? cond : .not(cond))
            default:
                throw ParseError(107, "bad constraint: \(op)")
            }
        }
        return .allOf(parts)
    }

    static let relativeTimeOpError = ParseError(107, "$relativeTime can only be used with the $lt, $lte, $gt, and $gte operators")

    private func regexOptions(_ v: JSON?) throws -> String {
        guard let v else { return "" }
        guard let s = v.stringValue else { throw ParseError(102, "Bad $options value for query: \(v.serialized())") }
        for c in s where !"imxs".contains(c) { throw ParseError(102, "Bad $options value for query: \(s)") }
        return s
    }

    private mutating func all(_ ref: FieldRef, _ items: [JSON]) throws -> QueryPredicate {
        guard items.count <= Self.maxListElements else { throw ParseError(102, "Too many elements in a $all list.") }
        let regexCount = items.filter { $0.objectValue?["$regex"] != nil }.count
        if regexCount > 0 && regexCount != items.count {
            throw ParseError(107, "All $all values must be of regex type or none: \(JSON.array(items).serialized())")
        }
        var elements: [ElementMatch] = []
        for item in items {
            if let r = item.objectValue, let pattern = r["$regex"]?.stringValue {
                let program = try ParseRegex.compile(pattern, options: try regexOptions(r["$options"]))
                guard let lit = program.literal else {
                    throw ParseError(102, "Unsupported regular expression feature.")
                }
                elements.append(.literal(lit))
            } else {
                elements.append(.equals(try Atom.from(item)))
            }
        }
        return .containsAll(ref, elements)
    }

    private mutating func regex(_ ref: FieldRef, _ pattern: String, options: String, topLevel: Bool) throws -> QueryPredicate {
        guard pattern.utf8.count <= 4096 else { throw ParseError(102, "Regular expression is too long.") }
        let program = try ParseRegex.compile(pattern, options: options)
        if let lit = program.literal { return .matchesLiteral(ref, lit) }
        guard topLevel else { throw ParseError(102, "Unsupported regular expression feature.") }
        residual.append(.regex(JSONPath(ref.path), program))
        return .constant(true)
    }
}
