/// A parsed BQL text (§6.1): `[where <part>] [join ...]* [sort by <field> [asc|desc]]`.
///
/// Engine-neutral: it names fields as the client wrote them and holds no SQL. The store's compiler
/// resolves the fields against the field catalogue and maps them to columns, never interpolating them.
public struct BQLQuery: Sendable, Hashable {
    /// The `where` condition, if any.
    public var condition: BQLCondition?
    /// The joins, in textual order.
    public var joins: [BQLJoin]
    /// The `sort by` clause, if any.
    public var sort: BQLSort?
    /// Number of `?` placeholders in the whole text; `params` must have exactly this many elements.
    public var placeholderCount: Int

    /// A query.
    public init(condition: BQLCondition? = nil, joins: [BQLJoin] = [], sort: BQLSort? = nil, placeholderCount: Int = 0) {
        self.condition = condition
        self.joins = joins
        self.sort = sort
        self.placeholderCount = placeholderCount
    }

    /// True for the empty query (`q` absent, empty or blank): no constraints.
    public var isEmpty: Bool { condition == nil && joins.isEmpty && sort == nil }
}

/// A `where` or `having` condition. `and`/`or` chains are right-associative with no precedence (§6.1):
/// `a and b or c` is `.and(a, .or(b, c))`. Parentheses only shape the tree.
public indirect enum BQLCondition: Sendable, Hashable {
    /// One comparison.
    case constraint(BQLConstraint)
    /// Both sides hold.
    case and(BQLCondition, BQLCondition)
    /// Either side holds.
    case or(BQLCondition, BQLCondition)

    /// The constraints in textual order (the order their placeholders are numbered in).
    public var constraints: [BQLConstraint] {
        var out: [BQLConstraint] = []
        var stack: [BQLCondition] = [self]
        while let next = stack.popLast() {
            switch next {
            case .constraint(let c): out.append(c)
            case .and(let a, let b), .or(let a, let b):
                stack.append(b)
                stack.append(a)
            }
        }
        return out
    }
}

/// `lhs operator rhs`.
public struct BQLConstraint: Sendable, Hashable {
    /// The constrained operand.
    public var lhs: BQLOperand
    /// The operator.
    public var op: BQLOperator
    /// The compared value.
    public var rhs: BQLValue
    /// Offset of the constraint's first token, for error messages.
    public var offset: Int

    /// A constraint.
    public init(lhs: BQLOperand, op: BQLOperator, rhs: BQLValue, offset: Int) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.offset = offset
    }
}

/// The left-hand side of a constraint.
public enum BQLOperand: Sendable, Hashable {
    /// `this`: the object itself (its id).
    case this
    /// A field of the queried entity (also `created_at`, `updated_at`).
    case field(String)
    /// `<toOne>.<field>`: a field of the object a to-one reference points to (`author.name`).
    case subfield(String, String)
}

/// The operators of §6.2.
public enum BQLOperator: String, Sendable, Hashable, CaseIterable {
    /// Equality (`=`); on a to-one reference the same as `is`.
    case equal = "="
    /// `<`.
    case less = "<"
    /// `<=`.
    case lessOrEqual = "<="
    /// `>`.
    case greater = ">"
    /// `>=`.
    case greaterOrEqual = ">="
    /// Full-text search on text fields.
    case like = "like"
    /// A to-one reference points to the object.
    case `is` = "is"
    /// A to-one reference does not point to the object (or is empty).
    case isNot = "is not"
    /// Membership: a collection, or `this in ?.<relationship>`.
    case `in` = "in"
    /// Negated membership.
    case notIn = "not in"
    /// A to-many relationship contains the object.
    case has = "has"

    /// True for `<`, `<=`, `>`, `>=`.
    public var isOrdering: Bool { self == .less || self == .lessOrEqual || self == .greater || self == .greaterOrEqual }
}

/// The right-hand side of a constraint.
public enum BQLValue: Sendable, Hashable {
    /// `?`: the `params` element at this 0-based position (placeholders are numbered in textual order
    /// across the whole text, `where` first, then each `having`).
    case placeholder(Int)
    /// `?.<field>`: the object given by the parameter at this position, and its to-many field, as in
    /// `this in ?.favoriteCities`.
    case placeholderRelation(Int, String)
    /// A number literal as written (`having score > 10`); bound like a parameter, consuming none.
    case number(String)
}

/// `join [first|last N] <field> [having <part>] [fetch <f>, ...]` (§6.3).
public struct BQLJoin: Sendable, Hashable {
    /// How many linked objects to return, and from which end.
    public enum Window: Sendable, Hashable {
        /// The N oldest links (by the time they were added), oldest first.
        case first(Int)
        /// The N newest links, newest first.
        case last(Int)
    }

    /// The joined relationship (to-one or to-many field).
    public var field: String
    /// `first N` / `last N`; nil for a plain join (to-one object, or to-many count only). N is as written,
    /// saturated at `BQLJoin.maxWindow`; the store clamps it to `backbeam.maxLimit`.
    public var window: Window?
    /// The `having` filter on the joined objects.
    public var having: BQLCondition?
    /// The to-one fields of the joined objects to resolve too.
    public var fetch: [String]
    /// Offset of the `join` keyword.
    public var offset: Int

    /// Where `first N` / `last N` saturates (any larger N means "all", far above any configured limit).
    public static let maxWindow = 1_000_000_000

    /// A join.
    public init(field: String, window: Window? = nil, having: BQLCondition? = nil, fetch: [String] = [], offset: Int) {
        self.field = field
        self.window = window
        self.having = having
        self.fetch = fetch
        self.offset = offset
    }
}

/// `sort by <field> [asc|desc]` (§6.4); ascending unless `desc`.
public struct BQLSort: Sendable, Hashable {
    /// The sort key.
    public var key: BQLOperand
    /// True for `desc`.
    public var descending: Bool
    /// Offset of the field.
    public var offset: Int

    /// A sort clause; `key` is `.this` or `.field`.
    public init(key: BQLOperand, descending: Bool = false, offset: Int) {
        self.key = key
        self.descending = descending
        self.offset = offset
    }
}
