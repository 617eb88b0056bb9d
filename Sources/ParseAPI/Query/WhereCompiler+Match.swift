import Core

/// A comparable operand of a `where` (spec §7.4).
enum Atom {
    case null, bool(Bool), number(JSONNumber), string(String), date(String), pointer(String, String), json(JSON)

    static func from(_ v: JSON) throws -> Atom {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array: return .json(try Values.normalize(v))
        case .object(let o):
            switch o["__type"]?.stringValue {
            case "Date":
                guard let iso = o["iso"]?.stringValue, let ts = ParseDate.normalize(iso) else {
                    throw ParseError(107, "bad atom: \(v.serialized())")
                }
                return .date(ts)
            case "Pointer", "Object":
                guard let c = o["className"]?.stringValue, let id = o["objectId"]?.stringValue else {
                    throw ParseError(107, "bad atom: \(v.serialized())")
                }
                return .pointer(c, id)
            case nil:
                return .json(v)
            default:
                guard let n = try? Values.normalize(v) else { throw ParseError(107, "bad atom: \(v.serialized())") }
                return .json(n)
            }
        }
    }

    var sqlNumber: SQLScalar {
        if case .number(let n) = self {
            if n.isInteger, let i = n.int64Value { return .integer(i) }
            return .real(n.doubleValue)
        }
        return .null
    }
}

/// Where a comparison reads its value: a stored field, or an element of an array (json_each alias).
struct MatchTarget {
    private enum Source {
        case field(FieldRef)
        case element(alias: String)
    }

    private let source: Source
    /// The schema type of a top-level field; writes are checked against it, so every stored value of the
    /// field has it (or is null or absent). Nil for paths into a value and for array elements.
    let schemaType: FieldType?

    init(_ ref: FieldRef) {
        source = .field(ref)
        schemaType = ref.kind == .data ? ref.type : nil
    }

    init(element alias: String) {
        source = .element(alias: alias)
        schemaType = nil
    }

    // The expressions are built when a clause asks for them, not up front: a comparison on a typed field
    // uses only `value`, and building the unused `type` expression was a measurable part of a query.

    /// The SQL expression of the value.
    var value: String {
        switch source {
        case .field(let ref): return ref.valueExpr
        case .element(let alias): return alias + ".value"
        }
    }

    /// The SQL expression of the value's JSON type (`json_type`'s names).
    var type: String {
        switch source {
        case .field(let ref): return ref.typeExpr
        case .element(let alias): return alias + ".type"
        }
    }

    /// The SQL expression of member `key` of an object value.
    func sub(_ key: String) -> String {
        switch source {
        case .field(let ref): return ref.sub(key)
        case .element(let alias):
            // Elements that are not objects are plain text to SQLite, and json_extract would reject them.
            return "(CASE WHEN \(alias).type = 'object' THEN json_extract(\(alias).value, \(SQLPath.path([key]))) END)"
        }
    }
}

extension WhereCompiler {
    /// `op` is one of `=`, `<`, `<=`, `>`, `>=`; values of another type family never match.
    mutating func scalar(_ t: MatchTarget, _ a: Atom, _ op: String) -> String {
        switch a {
        case .null:
            return op == "=" ? "(\(t.type) IS NULL OR \(t.type) = 'null')" : "0"
        case .bool(let b):
            if op == "=" { return "\(t.type) = '\(b ? "true" : "false")'" }
            args.append(.integer(b ? 1 : 0))
            return "(\(t.type) IN ('true', 'false') AND \(t.value) \(op) ?)"
        case .number:
            args.append(a.sqlNumber)
            // A Number field holds only numbers, so the type test (which parses the object's JSON again for
            // every row an index range yields) cannot reject anything the comparison accepts.
            if t.schemaType == .number { return "(\(t.value) \(op) ?)" }
            return "(\(t.type) IN ('integer', 'real') AND \(t.value) \(op) ?)"
        case .string(let s):
            args.append(.text(s))
            if t.schemaType == .string { return "(\(t.value) \(op) ?)" }
            return "(\(t.type) = 'text' AND \(t.value) \(op) ?)"
        case .date(let ts):
            args.append(.text(ts))
            return "(\(t.sub("__type")) = 'Date' AND \(t.sub("iso")) \(op) ?)"
        case .pointer(let c, let id):
            guard op == "=" else { return "0" }
            args += [.text(id), .text(c)]
            return "(\(t.sub("objectId")) = ? AND \(t.sub("className")) = ?)"
        case .json(let j):
            guard op == "=" else { return "0" }
            args.append(.text(j.serialized()))
            return "(\(t.type) IN ('object', 'array') AND \(t.value) = json(?))"
        }
    }

    /// A comparison on a field, with array semantics (an array matches when an element does).
    mutating func compare(_ ref: FieldRef, _ a: Atom, _ op: String) -> String {
        switch ref.kind {
        case .objectId:
            guard case .string(let s) = a else { return "0" }
            args.append(.text(s))
            return "o.id \(op) ?"
        case .createdAt, .updatedAt:
            var ts: String?
            if case .date(let d) = a { ts = d }
            if case .string(let s) = a { ts = ParseDate.normalize(s) }
            guard let ts else { return "0" }
            args.append(.text(ts))
            return "\(ref.valueExpr) \(op) ?"
        case .data:
            break
        }
        if case .pointer? = ref.type, case .string(let id) = a {
            args.append(.text(id))
            return "\(ref.sub("objectId")) \(op) ?"
        }
        return arrayAware(ref) { c, t in c.scalar(t, a, op) }
    }

    /// Applies `match` to the field and, unless the field is known not to be an array, to its elements.
    mutating func arrayAware(_ ref: FieldRef, wholeValueToo: Bool = true,
                             _ match: (inout WhereCompiler, MatchTarget) -> String) -> String {
        var parts: [String] = []
        let isArray = ref.type == .array
        if ref.type != nil && !isArray { return match(&self, MatchTarget(ref)) }
        if wholeValueToo { parts.append(match(&self, MatchTarget(ref))) }
        let alias = nextAlias()
        let inner = match(&self, MatchTarget(element: alias))
        parts.append("(\(ref.typeExpr) = 'array' AND EXISTS (SELECT 1 FROM json_each(o.data, \(SQLPath.path(ref.path))) "
                     + "AS \(alias) WHERE \(inner)))")
        return "(" + parts.joined(separator: " OR ") + ")"
    }

    mutating func equality(_ ref: FieldRef, _ value: JSON) throws -> String {
        let a = try Atom.from(value)
        if case .relation(let target)? = ref.type {
            guard case .pointer(let c, let id) = a, c == target else { return "0" }
            args += [.text(className), .text(ref.path[0]), .text(id)]
            return "o.id IN (SELECT owner_id FROM parse_relations WHERE owner_class = ? AND field = ? AND member_id = ?)"
        }
        return compare(ref, a, "=")
    }

    /// `$in` (lists flattened one level, spec §7.3).
    mutating func inList(_ ref: FieldRef, _ items: [JSON]) throws -> String {
        var flat: [JSON] = []
        for i in items { if let arr = i.arrayValue { flat += arr } else { flat.append(i) } }
        guard flat.count <= Self.maxListElements else { throw ParseError(102, "Too many elements in a $in, $nin or $all list.") }
        let atoms = try flat.map(Atom.from)
        if case .relation? = ref.type {
            let ids = atoms.compactMap { a -> JSON? in if case .pointer(_, let id) = a { return .string(id) }; return nil }
            args += [.text(className), .text(ref.path[0]), .text(JSON.array(ids).serialized())]
            return "o.id IN (SELECT owner_id FROM parse_relations WHERE owner_class = ? AND field = ? AND member_id IN "
                + "(SELECT value FROM json_each(?)))"
        }
        switch ref.kind {
        case .objectId:
            let ids = atoms.compactMap { a -> JSON? in if case .string(let s) = a { return .string(s) }; return nil }
            args.append(.text(JSON.array(ids).serialized()))
            return "o.id IN (SELECT value FROM json_each(?))"
        case .createdAt, .updatedAt:
            let ts = atoms.compactMap { a -> JSON? in
                if case .date(let d) = a { return .string(d) }
                if case .string(let s) = a, let d = ParseDate.normalize(s) { return .string(d) }
                return nil
            }
            args.append(.text(JSON.array(ts).serialized()))
            return "\(ref.valueExpr) IN (SELECT value FROM json_each(?))"
        case .data:
            break
        }
        let pointerField: Bool
        if case .pointer? = ref.type { pointerField = true } else { pointerField = false }
        if atoms.isEmpty { return "0" }
        return arrayAware(ref) { c, t in c.listMatch(t, atoms, pointerField: pointerField) }
    }

    /// Membership of one value in a list of atoms, grouped by type family so each group is one bound list.
    mutating func listMatch(_ t: MatchTarget, _ atoms: [Atom], pointerField: Bool) -> String {
        var strings: [JSON] = [], numbers: [JSON] = [], dates: [JSON] = [], pointerIds: [JSON] = []
        var others: [String] = []
        for a in atoms {
            switch a {
            case .string(let s):
                if pointerField { pointerIds.append(.string(s)) } else { strings.append(.string(s)) }
            case .number(let n): numbers.append(.number(n))
            case .date(let d): dates.append(.string(d))
            case .pointer(_, let id): pointerIds.append(.string(id))
            default: others.append(scalar(t, a, "="))
            }
        }
        var parts = others
        if !strings.isEmpty {
            args.append(.text(JSON.array(strings).serialized()))
            parts.append("(\(t.type) = 'text' AND \(t.value) IN (SELECT value FROM json_each(?)))")
        }
        if !numbers.isEmpty {
            args.append(.text(JSON.array(numbers).serialized()))
            parts.append("(\(t.type) IN ('integer', 'real') AND \(t.value) IN (SELECT value FROM json_each(?)))")
        }
        if !dates.isEmpty {
            args.append(.text(JSON.array(dates).serialized()))
            parts.append("(\(t.sub("iso")) IN (SELECT value FROM json_each(?)))")
        }
        if !pointerIds.isEmpty {
            args.append(.text(JSON.array(pointerIds).serialized()))
            parts.append("(\(t.sub("objectId")) IN (SELECT value FROM json_each(?)))")
        }
        return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
    }
}
