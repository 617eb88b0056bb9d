import Core
import Storage
import QueryKit

/// What an operand resolved to against the catalogue (and the schema).
indirect enum ResolvedOperand {
    /// `this`: the object id.
    case this
    /// `created_at` / `updated_at`: a column.
    case timestamp(column: String)
    /// A field of the entity with a known catalogue entry (its type may still be unknown).
    case field(FieldInfo, kind: BQLFieldKind)
    /// A field with no catalogue entry (never written): matches nothing.
    case unknown
    /// `ref.field`: a field of the object a to-one reference points to.
    case subfield(ref: FieldInfo, target: String, inner: ResolvedOperand)

    var kind: BQLFieldKind {
        switch self {
        case .this: return .this
        case .timestamp: return .timestamp
        case .field(_, let kind): return kind
        case .unknown: return .unknown
        case .subfield(_, _, let inner): return inner.kind
        }
    }
}

/// Compiles the engine-neutral BQL AST (`BQLCondition`, `BQLSort`) into SQL over `bb_objects`, with every
/// value bound as a parameter (§6, §7.2). Field names are resolved against the field catalogue and become
/// internal ids; client text never enters the SQL.
struct BQLCompiler {
    let space: SpaceID
    let catalogue: FieldCatalogue
    let schema: ProjectSchema?
    let bound: BQLBoundQuery
    let limits: BQLLimits

    // MARK: - Operands

    /// Resolves `operand` in `entity`. With a strict schema an undeclared field is an `InvalidQuery`.
    func resolve(_ operand: BQLOperand, entity: String, offset: Int) throws(BQLError) -> ResolvedOperand {
        switch operand {
        case .this:
            return .this
        case .field(let name):
            return try resolveField(name, entity: entity, offset: offset)
        case .subfield(let refName, let name):
            let ref = try resolveField(refName, entity: entity, offset: offset)
            switch ref {
            case .unknown:
                return .unknown
            case .field(let info, .toOne):
                let target = info.target ?? schema?.field(refName, of: entity)?.target
                guard let target else { return .unknown }
                let inner = try resolveField(name, entity: target, offset: offset)
                if case .subfield = inner { return .unknown }
                return .subfield(ref: info, target: target, inner: inner)
            default:
                throw BQLError(.type, "'\(refName)' is not a to-one relationship", at: offset)
            }
        }
    }

    private func resolveField(_ name: String, entity: String, offset: Int) throws(BQLError) -> ResolvedOperand {
        if name == "created_at" || name == "updated_at" { return .timestamp(column: name) }
        let declared = schema?.field(name, of: entity)
        if schema?.strict == true, declared == nil {
            throw BQLError(.type, "Unknown field '\(name)'", at: offset)
        }
        // A field never written (declared or not) has no values: its constraints match nothing (§6.2).
        guard let info = catalogue.field(name, of: entity) else { return .unknown }
        if let declared {
            var typed = info
            typed.type = declared.type
            typed.many = declared.type == .reference && declared.many
            return .field(typed, kind: typed.bqlKind)
        }
        return .field(info, kind: info.bqlKind)
    }

    // MARK: - Conditions

    /// Appends the SQL of `condition` on the object aliased `alias` of `entity`.
    func condition(_ condition: BQLCondition, entity: String, alias: String, into out: inout SQLFragment) throws(BQLError) {
        switch condition {
        case .constraint(let c):
            try constraint(c, entity: entity, alias: alias, into: &out)
        case .and(let a, let b), .or(let a, let b):
            let isAnd: Bool
            if case .and = condition { isAnd = true } else { isAnd = false }
            out.sql("(")
            try self.condition(a, entity: entity, alias: alias, into: &out)
            out.sql(isAnd ? " AND " : " OR ")
            try self.condition(b, entity: entity, alias: alias, into: &out)
            out.sql(")")
        }
    }

    /// One constraint: resolved, type-checked (§6.2), then compiled.
    func constraint(_ c: BQLConstraint, entity: String, alias: String, into out: inout SQLFragment) throws(BQLError) {
        let operand = try resolve(c.lhs, entity: entity, offset: c.offset)
        let value = try BQLTypeCheck.value(of: c, in: bound, kind: operand.kind, limits: limits)
        try emit(operand, c.op, value, entity: entity, alias: alias, into: &out, depth: 0)
    }

    private func emit(_ operand: ResolvedOperand, _ op: BQLOperator, _ value: BQLTypedValue, entity: String,
                      alias: String, into out: inout SQLFragment, depth: Int) throws(BQLError) {
        if case .matchesNothing = value {
            out.dependsOnValues()
            out.sql("0")
            return
        }
        switch operand {
        case .unknown:
            out.sql("0")
        case .this:
            switch value {
            case .object(let id):
                out.sql("\(alias).id = ")
                out.bind(.text(id))
            case .collection(let collection):
                out.dependsOnValues()
                if op == .notIn { out.sql("NOT ") }
                collectionMatch(collection, alias: alias, isUser: entity == "user", into: &out)
            case .relation(let object, let field):
                out.dependsOnValues()
                out.sql("\(alias).seq \(op == .notIn ? "NOT IN" : "IN") (SELECT l.member FROM bb_links l WHERE l.owner = (SELECT seq FROM bb_objects WHERE space = ")
                out.bind(.integer(space.value))
                out.sql(" AND id = ")
                out.bind(.text(object))
                out.sql(") AND l.field = (SELECT f.id FROM bb_fields f JOIN bb_objects p ON p.space = f.space AND p.entity = f.entity WHERE p.space = ")
                out.bind(.integer(space.value))
                out.sql(" AND p.id = ")
                out.bind(.text(object))
                out.sql(" AND f.name = ")
                out.bind(.text(field))
                out.sql("))")
            default:
                out.dependsOnValues()
                out.sql("0")
            }
        case .timestamp(let column):
            guard case .date(let ms) = value, let sqlOp = Self.comparison(op) else {
                out.dependsOnValues()
                out.sql("0")
                return
            }
            out.sql("\(alias).\(column) \(sqlOp) ")
            out.bind(.integer(ms))
        case .field(let info, let kind):
            try fieldConstraint(info, kind: kind, op, value, alias: alias, into: &out)
        case .subfield(let ref, let target, let inner):
            let child = "t\(depth)"
            out.sql("\(alias).seq IN (SELECT r.owner FROM bb_refs r JOIN bb_objects \(child) ON \(child).seq = r.target WHERE r.field = ")
            out.bind(.integer(ref.id))
            out.sql(" AND ")
            try emit(inner, op, value, entity: target, alias: child, into: &out, depth: depth + 1)
            out.sql(")")
        }
    }

    private func fieldConstraint(_ info: FieldInfo, kind: BQLFieldKind, _ op: BQLOperator, _ value: BQLTypedValue,
                                 alias: String, into out: inout SQLFragment) throws(BQLError) {
        switch kind {
        case .toOne:
            switch value {
            case .object(let id):
                out.sql("\(alias).seq \(op == .isNot ? "NOT IN" : "IN") (SELECT owner FROM bb_refs WHERE field = ")
                out.bind(.integer(info.id))
                out.sql(" AND target = (SELECT seq FROM bb_objects WHERE space = ")
                out.bind(.integer(space.value))
                out.sql(" AND id = ")
                out.bind(.text(id))
                out.sql("))")
            case .collection(let collection):
                out.dependsOnValues()
                out.sql("\(alias).seq \(op == .notIn ? "NOT IN" : "IN") (SELECT r.owner FROM bb_refs r JOIN bb_objects c ON c.seq = r.target WHERE r.field = ")
                out.bind(.integer(info.id))
                out.sql(" AND ")
                collectionMatch(collection, alias: "c", isUser: info.target == "user", into: &out)
                out.sql(")")
            default:
                out.dependsOnValues()
                out.sql("0")
            }
        case .toMany:
            guard case .object(let id) = value else {
                out.dependsOnValues()
                out.sql("0")
                return
            }
            out.sql("\(alias).seq IN (SELECT owner FROM bb_links WHERE field = ")
            out.bind(.integer(info.id))
            out.sql(" AND member = (SELECT seq FROM bb_objects WHERE space = ")
            out.bind(.integer(space.value))
            out.sql(" AND id = ")
            out.bind(.text(id))
            out.sql("))")
        case .scalar:
            if case .words(let words) = value {
                // The words' own text is bound, but whether there are any chooses the text.
                out.dependsOnValues()
                guard !words.isEmpty else { out.sql("0"); return }
                out.sql("\(alias).seq IN (SELECT t.object FROM bb_text t WHERE t.rowid IN (SELECT rowid FROM bb_fts WHERE bb_fts MATCH ")
                out.bind(.text(FullTextSQL.match(fieldID: info.id, words: words)))
                out.sql("))")
                return
            }
            guard let sqlOp = Self.comparison(op), let bound = Self.sqlValue(value) else {
                out.dependsOnValues()
                out.sql("0")
                return
            }
            out.sql(SQLFragment.fieldValue(alias: alias, fieldID: info.id) + " \(sqlOp) ")
            out.bind(bound)
        default:
            out.sql("0")
        }
    }

    /// `alias` is one of the collection's objects: by id, and for users by social identity or login email
    /// (case-insensitively). Prefixed entries are ignored for other entities (§6.2). Each list is bound as one
    /// JSON array read with `json_each`, so the statement text does not depend on the number of entries.
    func collectionMatch(_ collection: BQLCollection, alias: String, isUser: Bool, into out: inout SQLFragment) {
        var parts: [SQLFragment] = []
        if !collection.objectIDs.isEmpty {
            var part = SQLFragment("\(alias).id IN (SELECT value FROM json_each(")
            part.bind(.text(Self.jsonArray(collection.objectIDs)))
            part.sql("))")
            parts.append(part)
        }
        if isUser {
            var byKind: [BQLCollection.Identity.Kind: [String]] = [:]
            for identity in collection.identities { byKind[identity.kind, default: []].append(identity.value) }
            for kind in BQLCollection.Identity.Kind.allCases {
                guard let values = byKind[kind] else { continue }
                var part = SQLFragment()
                if kind == .email {
                    part.sql("\(alias).seq IN (SELECT object FROM bb_users WHERE space = ")
                    part.bind(.integer(space.value))
                    part.sql(" AND email_folded IN (SELECT value FROM json_each(")
                    part.bind(.text(Self.jsonArray(values.map { EmailAddress.folded($0) })))
                    part.sql(")))")
                } else {
                    part.sql("\(alias).seq IN (SELECT object FROM bb_identities WHERE space = ")
                    part.bind(.integer(space.value))
                    part.sql(" AND provider = ")
                    part.bind(.text(kind.rawValue))
                    part.sql(" AND provider_id IN (SELECT value FROM json_each(")
                    part.bind(.text(Self.jsonArray(values)))
                    part.sql(")))")
                }
                parts.append(part)
            }
        }
        guard !parts.isEmpty else {
            out.sql("0")
            return
        }
        out.sql("(")
        for (i, part) in parts.enumerated() {
            if i > 0 { out.sql(" OR ") }
            out.append(part)
        }
        out.sql(")")
    }

    // MARK: - Sorting

    /// The ORDER BY terms of `sort` on `alias` (without the tie-breakers), or nil when the key has no values
    /// (a field never written: every object is "missing", so the order is the tie-breakers').
    func orderTerms(_ sort: BQLSort, entity: String, alias: String) throws(BQLError) -> String? {
        let operand = try resolve(sort.key, entity: entity, offset: sort.offset)
        if case .subfield = operand { throw BQLError(.type, "Cannot sort by a field of another object", at: sort.offset) }
        try BQLTypeCheck.checkSort(sort, kind: operand.kind)
        let direction = sort.descending ? " DESC" : ""
        switch operand {
        case .this:
            return "\(alias).id\(direction)"
        case .timestamp(let column):
            return "\(alias).\(column)\(direction)"
        case .field(let info, .scalar(let type)):
            let expression = SQLFragment.fieldValue(alias: alias, fieldID: info.id)
            // Text sorts ASCII case-insensitively, then by code point (§6.4); SQLite's NOCASE folds ASCII only.
            if type == .text || type == .textarea || type == .select {
                return "\(expression) COLLATE NOCASE\(direction), \(expression)\(direction)"
            }
            return "\(expression)\(direction)"
        default:
            return nil
        }
    }

    // MARK: - Values

    /// The SQL spelling of a comparison: BQL writes them as the shared comparison operators do (QueryKit),
    /// and SQL uses the same symbols.
    static func comparison(_ op: BQLOperator) -> String? {
        ComparisonOperator(symbol: op.rawValue)?.symbol
    }

    /// The bound form of a scalar parameter, matching what `json_extract` returns for stored values: text
    /// and days as text, numbers as reals (compared numerically with stored integers), dates as integers,
    /// booleans as 1/0.
    static func sqlValue(_ value: BQLTypedValue) -> SQLValue? {
        switch value {
        case .text(let s), .day(let s): return .text(s)
        case .number(let n): return .real(n)
        case .date(let ms): return .integer(ms)
        case .boolean(let b): return .integer(b ? 1 : 0)
        default: return nil
        }
    }

    static func jsonArray(_ values: [String]) -> String {
        JSON.array(values.map(JSON.string)).serialized()
    }
}
