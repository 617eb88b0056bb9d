import Core
import QueryKit

extension FieldRef {
    /// The SQL expression of the value: a column, or `json_extract` of the path.
    var sqlValue: String {
        guard let column else { return SQLPath.extract(path: path) }
        return SQLiteQueryRenderer.columnExpr(column)
    }

    /// The SQL expression of the value's JSON type (`json_type`'s names); columns are text.
    var sqlType: String { column == nil ? SQLPath.type(path: path) : "'text'" }

    /// The SQL expression of member `key` of an object value.
    func sqlMember(_ key: String) -> String { SQLPath.extract(path: path + [key]) }

    /// The path as a JSON path literal, for `json_each(o.data, ...)`.
    var sqlPath: String { SQLPath.path(path) }
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
        schemaType = ref.isColumn ? nil : ref.type
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
        case .field(let ref): return ref.sqlValue
        case .element(let alias): return alias + ".value"
        }
    }

    /// The SQL expression of the value's JSON type (`json_type`'s names).
    var type: String {
        switch source {
        case .field(let ref): return ref.sqlType
        case .element(let alias): return alias + ".type"
        }
    }

    /// The SQL expression of member `key` of an object value.
    func sub(_ key: String) -> String {
        switch source {
        case .field(let ref): return ref.sqlMember(key)
        case .element(let alias):
            // Elements that are not objects are plain text to SQLite, and json_extract would reject them.
            return "(CASE WHEN \(alias).type = 'object' THEN json_extract(\(alias).value, \(SQLPath.path([key]))) END)"
        }
    }
}

extension SQLiteQueryRenderer {
    /// `op` is one of `=`, `<`, `<=`, `>`, `>=`; values of another type family never match.
    mutating func scalar(_ t: MatchTarget, _ a: Atom, _ op: String) -> String {
        switch a {
        case .null:
            return op == "=" ? "(\(t.type) IS NULL OR \(t.type) = 'null')" : "0"
        case .bool(let b):
            if op == "=" { return "\(t.type) = '\(b ? "true" : "false")'" }
            args.append(.integer(b ? 1 : 0))
            return "(\(t.type) IN ('true', 'false') AND \(t.value) \(op) ?)"
        case .number(let n):
            args.append(Self.number(n))
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

    /// A number bound as SQLite compares it: integers as integers, others as reals.
    static func number(_ n: JSONNumber) -> SQLScalar {
        if n.isInteger, let i = n.int64Value { return .integer(i) }
        return .real(n.doubleValue)
    }

    /// Applies `match` to the field's value and, unless the field is known not to be an array, to its
    /// elements.
    mutating func arrayAware(_ ref: FieldRef, _ match: (inout SQLiteQueryRenderer, MatchTarget) -> String) -> String {
        if ref.isScalar { return match(&self, MatchTarget(ref)) }
        let whole = match(&self, MatchTarget(ref))
        let alias = nextAlias()
        let inner = match(&self, MatchTarget(element: alias))
        return "(" + whole + " OR " + "(\(ref.sqlType) = 'array' AND EXISTS (SELECT 1 FROM json_each(o.data, \(ref.sqlPath)) "
            + "AS \(alias) WHERE \(inner)))" + ")"
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

    /// `$all`: an array with an element matching each entry.
    mutating func containsAll(_ ref: FieldRef, _ elements: [ElementMatch]) -> String {
        if elements.isEmpty { return "\(ref.sqlType) = 'array'" }
        var parts: [String] = []
        for element in elements {
            let alias = nextAlias()
            let inner: String
            switch element {
            case .literal(let lit): inner = literalMatch(MatchTarget(element: alias), lit)
            case .equals(let a): inner = scalar(MatchTarget(element: alias), a, "=")
            }
            parts.append("EXISTS (SELECT 1 FROM json_each(o.data, \(ref.sqlPath)) AS \(alias) WHERE \(inner))")
        }
        return "\(ref.sqlType) = 'array' AND " + parts.joined(separator: " AND ")
    }

    /// `$containedBy`: an array none of whose elements is outside the list.
    mutating func containedBy(_ ref: FieldRef, _ atoms: [Atom]) -> String {
        let alias = nextAlias()
        let inner = listMatch(MatchTarget(element: alias), atoms, pointerField: false)
        return "(\(ref.sqlType) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(o.data, "
            + "\(ref.sqlPath)) AS \(alias) WHERE NOT IFNULL(\(inner), 0)))"
    }
}
