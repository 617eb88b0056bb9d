import Core
import QueryKit

extension WhereCompiler {
    static let comparisonOps: [String: String] = ["$lt": "<", "$lte": "<=", "$gt": ">", "$gte": ">="]

    /// An operator object `{"$op": operand, ...}`: every key must be an operator (spec §7.3).
    mutating func operators(_ ref: FieldRef, _ o: JSONObject, topLevel: Bool) throws -> String {
        var parts: [String] = []
        let options = try regexOptions(o["$options"])
        for (op, operand) in o {
            switch op {
            case "$eq":
                if operand.objectValue?["$relativeTime"] != nil { throw Self.relativeTimeOpError }
                parts.append(try equality(ref, operand))
            case "$ne":
                if operand.objectValue?["$relativeTime"] != nil { throw Self.relativeTimeOpError }
                parts.append("NOT IFNULL(\(try equality(ref, operand)), 0)")
            case "$lt", "$lte", "$gt", "$gte":
                let sqlOp = Self.comparisonOps[op] ?? "="
                let atom: Atom
                if let rt = operand.objectValue?["$relativeTime"] {
                    let isDate = ref.kind == .createdAt || ref.kind == .updatedAt || ref.type == .date
                    guard isDate else { throw ParseError(107, "$relativeTime can only be used with Date field") }
                    atom = .date(try RelativeTime.resolve(rt, op: op))
                } else {
                    atom = try Atom.from(operand)
                }
                parts.append(compare(ref, atom, sqlOp))
            case "$in":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $in value") }
                parts.append(try inList(ref, items))
            case "$nin":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $nin value") }
                parts.append("NOT IFNULL(\(try inList(ref, items)), 0)")
            case "$exists":
                let flag: Bool
                switch operand {
                case .bool(let b): flag = b
                case .number(let n) where n.doubleValue == 0 || n.doubleValue == 1: flag = n.doubleValue == 1
                default: throw ParseError(107, "bad $exists value")
                }
                if ref.isColumn { parts.append(flag ? "1" : "0"); continue }
                let present = "(\(ref.typeExpr) IS NOT NULL AND \(ref.typeExpr) != 'null')"
                parts.append(flag ? present : "NOT \(present)")
            case "$all":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $all value") }
                parts.append(try all(ref, items))
            case "$containedBy":
                guard let items = operand.arrayValue else { throw ParseError(107, "bad $containedBy: should be an array") }
                let atoms = try items.map(Atom.from)
                let alias = nextAlias()
                let inner = listMatch(MatchTarget(element: alias), atoms, pointerField: false)
                parts.append("(\(ref.typeExpr) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(o.data, "
                             + "\(SQLPath.path(ref.path))) AS \(alias) WHERE NOT IFNULL(\(inner), 0)))")
            case "$regex":
                guard let pattern = operand.stringValue else { throw ParseError(107, "bad regex") }
                parts.append(try regex(ref, pattern, options: options, topLevel: topLevel))
            case "$options":
                if o["$regex"] == nil { throw ParseError(107, "bad constraint: $options") }
            case "$inQuery", "$notInQuery":
                let sub = try subquery(op, operand)
                let cond = pointerIn(ref, sub)
                parts.append(op == "$inQuery" ? cond : "NOT IFNULL(\(cond), 0)")
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
                parts.append(op == "$select" ? cond : "NOT IFNULL(\(cond), 0)")
            default:
                throw ParseError(107, "bad constraint: \(op)")
            }
        }
        return parts.isEmpty ? "1" : parts.map { "(\($0))" }.joined(separator: " AND ")
    }

    static let relativeTimeOpError = ParseError(107, "$relativeTime can only be used with the $lt, $lte, $gt, and $gte operators")

    private func regexOptions(_ v: JSON?) throws -> String {
        guard let v else { return "" }
        guard let s = v.stringValue else { throw ParseError(102, "Bad $options value for query: \(v.serialized())") }
        for c in s where !"imxs".contains(c) { throw ParseError(102, "Bad $options value for query: \(s)") }
        return s
    }

    private mutating func all(_ ref: FieldRef, _ items: [JSON]) throws -> String {
        guard items.count <= Self.maxListElements else { throw ParseError(102, "Too many elements in a $all list.") }
        let regexCount = items.filter { $0.objectValue?["$regex"] != nil }.count
        if regexCount > 0 && regexCount != items.count {
            throw ParseError(107, "All $all values must be of regex type or none: \(JSON.array(items).serialized())")
        }
        if items.isEmpty { return "\(ref.typeExpr) = 'array'" }
        var parts: [String] = []
        for item in items {
            if let r = item.objectValue, let pattern = r["$regex"]?.stringValue {
                let program = try ParseRegex.compile(pattern, options: try regexOptions(r["$options"]))
                guard let lit = program.literal else {
                    throw ParseError(102, "Unsupported regular expression feature.")
                }
                let alias = nextAlias()
                let inner = literalMatch(MatchTarget(element: alias), lit)
                parts.append("EXISTS (SELECT 1 FROM json_each(o.data, \(SQLPath.path(ref.path))) AS \(alias) WHERE \(inner))")
            } else {
                let a = try Atom.from(item)
                let alias = nextAlias()
                let inner = scalar(MatchTarget(element: alias), a, "=")
                parts.append("EXISTS (SELECT 1 FROM json_each(o.data, \(SQLPath.path(ref.path))) AS \(alias) WHERE \(inner))")
            }
        }
        return "\(ref.typeExpr) = 'array' AND " + parts.joined(separator: " AND ")
    }

    private mutating func regex(_ ref: FieldRef, _ pattern: String, options: String, topLevel: Bool) throws -> String {
        guard pattern.utf8.count <= 4096 else { throw ParseError(102, "Regular expression is too long.") }
        let program = try ParseRegex.compile(pattern, options: options)
        if let lit = program.literal {
            if ref.isColumn { return literalMatch(MatchTarget(ref), lit) }
            return arrayAware(ref, wholeValueToo: true) { c, t in c.literalMatch(t, lit) }
        }
        guard topLevel else { throw ParseError(102, "Unsupported regular expression feature.") }
        let path = ref.path
        residual.append { QueryRunner.residualMatch($0, path, program) }
        return "1"
    }

    /// A regex that is one literal with optional anchors, as plain string comparisons.
    mutating func literalMatch(_ t: MatchTarget, _ lit: RegexLiteral) -> String {
        let value = lit.caseInsensitive ? "lower(\(t.value))" : t.value
        let text = lit.caseInsensitive ? lit.text.lowercased() : lit.text
        let guardType = "\(t.type) = 'text'"
        if text.isEmpty { return guardType }
        args.append(.text(text))
        let n = text.count
        switch (lit.anchoredStart, lit.anchoredEnd) {
        case (true, true): return "(\(guardType) AND \(value) = ?)"
        case (true, false): return "(\(guardType) AND substr(\(value), 1, \(n)) = ?)"
        case (false, true): return "(\(guardType) AND substr(\(value), -\(n)) = ? AND length(\(value)) >= \(n))"
        case (false, false): return "(\(guardType) AND instr(\(value), ?) > 0)"
        }
    }
}
