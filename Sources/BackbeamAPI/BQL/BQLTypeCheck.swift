/// What a constraint's operand turned out to be once the store resolved it against the field catalogue
/// (for `a.b`, the kind of `b` in the entity `a` refers to).
public enum BQLFieldKind: Sendable, Equatable {
    /// `this`: the object id.
    case this
    /// `created_at` or `updated_at`: integer milliseconds.
    case timestamp
    /// A field with a value type (every type but `#r`).
    case scalar(FieldType)
    /// A to-one reference.
    case toOne
    /// A to-many relationship.
    case toMany
    /// A field never written in this environment (schemaless). Constraints on it match nothing (§6.2).
    case unknown
}

/// A parameter bound and converted for its constraint (§6.2).
public enum BQLTypedValue: Sendable, Equatable {
    /// Text of a t/ta/rt/s field, compared by code point.
    case text(String)
    /// A `#n` value.
    case number(Double)
    /// A `#d` value or a timestamp, in milliseconds.
    case date(Int64)
    /// A `#b` value.
    case boolean(Bool)
    /// A `#c` value, normalised to ASCII `YYYY-MM-DD` (so string order is date order).
    case day(String)
    /// An object id (`=`/`is`/`is not` on a to-one, `has`, `this =`).
    case object(String)
    /// `this in ?.<field>`: the object id given and its to-many field.
    case relation(object: String, field: String)
    /// A collection constraint (`this in ?`, `<to-one> in ?`).
    case collection(BQLCollection)
    /// The words of a `like` parameter; empty matches nothing.
    case words([String])
    /// The constrained field was never written: the constraint matches nothing.
    case matchesNothing
}

/// Checks operators against field kinds and converts parameters to typed values (§6.2), as a pure step
/// between parsing and SQL compilation.
public enum BQLTypeCheck {
    /// The typed value of `constraint` in `bound`, whose operand resolved to `kind`.
    ///
    /// An operator that `kind` does not support is a type error (`InvalidQuery`, with the constraint's
    /// offset); a parameter of the wrong form is `InvalidParameters`.
    public static func value(of constraint: BQLConstraint, in bound: BQLBoundQuery, kind: BQLFieldKind,
                             limits: BQLLimits = BQLLimits()) throws(BQLError) -> BQLTypedValue {
        let raw = bound.text(of: constraint.rhs)
        let parameter: Int
        switch constraint.rhs {
        case .placeholder(let i), .placeholderRelation(let i, _): parameter = i
        case .number: parameter = -1
        }
        func invalid(_ what: String) -> BQLError {
            let which = parameter >= 0 ? "Parameter \(parameter + 1)" : "The number"
            return BQLError(.parameterValue, "\(which) is not \(what)", at: constraint.offset)
        }
        func unsupported() -> BQLError {
            BQLError(.type, "Operator '\(constraint.op.rawValue)' cannot be used on \(describe(constraint.lhs))",
                     at: constraint.offset)
        }
        if case .placeholderRelation(_, let field) = constraint.rhs {
            guard kind == .this else { throw unsupported() }
            guard let id = Identifiers.objectID(fromReference: raw) else { throw invalid("an object") }
            return .relation(object: id, field: field)
        }
        switch (kind, constraint.op) {
        case (.unknown, _):
            return .matchesNothing
        case (.this, .equal), (.toOne, .equal), (.toOne, .is), (.toOne, .isNot), (.toMany, .has):
            guard let id = Identifiers.objectID(fromReference: raw) else { throw invalid("an object") }
            return .object(id)
        case (.this, .in), (.this, .notIn), (.toOne, .in), (.toOne, .notIn):
            return .collection(try BQLCollection.parse(raw, maxEntries: limits.maxCollectionEntries,
                                                       parameter: max(0, parameter)))
        case (.timestamp, let op) where op == .equal || op.isOrdering:
            guard let ms = FieldValues.date(raw) else { throw invalid("a date in milliseconds") }
            return .date(ms)
        case (.scalar(let type), let op):
            return try scalar(type, op, raw, invalid: invalid, unsupported: unsupported)
        default:
            throw unsupported()
        }
    }

    /// `=`, ordering and `like` on value types: which type takes which operator (§6.2). `like` is for
    /// t/ta/rt; ordering for t, ta, s (code-point order), n, d, c; `=` for all but json and location.
    private static func scalar(_ type: FieldType, _ op: BQLOperator, _ raw: String, invalid: (String) -> BQLError,
                               unsupported: () -> BQLError) throws(BQLError) -> BQLTypedValue {
        if op == .like {
            guard type.isText else { throw unsupported() }
            return .words(words(raw))
        }
        let ordering = op.isOrdering
        guard op == .equal || ordering else { throw unsupported() }
        switch type {
        case .text, .textarea, .select:
            return .text(raw)
        case .richText:
            guard !ordering else { throw unsupported() }
            return .text(raw)
        case .number:
            guard let n = FieldValues.number(raw) else { throw invalid("a number") }
            return .number(n)
        case .date:
            guard let ms = FieldValues.date(raw) else { throw invalid("a date in milliseconds") }
            return .date(ms)
        case .day:
            guard let day = FieldValues.day(raw) else { throw invalid("a day (YYYY-MM-DD)") }
            return .day(day)
        case .boolean:
            guard !ordering else { throw unsupported() }
            guard let b = FieldValues.boolean(raw) else { throw invalid("a boolean") }
            return .boolean(b)
        case .json, .location, .reference:
            throw unsupported()
        }
    }

    /// Checks that a `sort by` key of `kind` is sortable (§6.4): t, ta, s, n, d, b, c, timestamps and
    /// `this`. A never-written field sorts as all-missing, which is no error.
    public static func checkSort(_ sort: BQLSort, kind: BQLFieldKind) throws(BQLError) {
        switch kind {
        case .this, .timestamp, .unknown: return
        case .scalar(let type) where [.text, .textarea, .select, .number, .date, .boolean, .day].contains(type): return
        default: throw BQLError(.type, "Cannot sort by \(describe(sort.key))", at: sort.offset)
        }
    }

    /// The words of a `like` parameter: maximal runs of letters, marks and digits. Everything else
    /// separates words, so FTS syntax in the parameter (`"`, `*`, `(`, `NEAR(`...) can never reach the
    /// full-text query as syntax; each word is quoted by the compiler anyway.
    public static func words(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                out.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }

    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    static func describe(_ operand: BQLOperand) -> String {
        switch operand {
        case .this: return "'this'"
        case .field(let f): return "field '\(f)'"
        case .subfield(let a, let b): return "field '\(a).\(b)'"
        }
    }
}
