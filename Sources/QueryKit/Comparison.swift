/// The ordering comparisons of the query languages (Parse `where`, Couch selectors, BQL).
///
/// Inequality (`$ne`) is not one of them: it is the negation of `equal`, which matters for missing values
/// and arrays, so compilers express it as a negated predicate.
public enum ComparisonOperator: Sendable, Hashable, CaseIterable {
    case equal, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual

    /// From a MongoDB-style operator name (`$eq`, `$lt`, `$lte`, `$gt`, `$gte`), as Parse and Couch spell them.
    public init?(mongoName: String) {
        switch mongoName {
        case "$eq": self = .equal
        case "$lt": self = .lessThan
        case "$lte": self = .lessThanOrEqual
        case "$gt": self = .greaterThan
        case "$gte": self = .greaterThanOrEqual
        default: return nil
        }
    }

    /// From a symbol (`=`, `<`, `<=`, `>`, `>=`), as SQL-like languages such as BQL spell them.
    public init?(symbol: String) {
        guard let op = Self.allCases.first(where: { $0.symbol == symbol }) else { return nil }
        self = op
    }

    /// The symbol.
    public var symbol: String {
        switch self {
        case .equal: return "="
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        }
    }

    /// The MongoDB-style name.
    public var mongoName: String {
        switch self {
        case .equal: return "$eq"
        case .lessThan: return "$lt"
        case .lessThanOrEqual: return "$lte"
        case .greaterThan: return "$gt"
        case .greaterThanOrEqual: return "$gte"
        }
    }

    /// Whether `value op operand` holds for two collation keys. Equality compares whole keys; a range
    /// comparison holds only between values of the same type family (a number is neither less nor
    /// greater than a string), the rule of MongoDB-style query languages.
    public func holds(_ value: CollationKey, _ operand: CollationKey) -> Bool {
        guard self == .equal || value.family == operand.family else { return false }
        switch self {
        case .equal: return value == operand
        case .lessThan: return value < operand
        case .lessThanOrEqual: return !(operand < value)
        case .greaterThan: return operand < value
        case .greaterThanOrEqual: return !(value < operand)
        }
    }
}

/// Where a value sorts among values of every type: first its type family's rank (which the query
/// language chooses), then a number or a text within the family. Keys order lexicographically.
public struct CollationKey: Sendable, Hashable, Comparable {
    /// The rank of the value's type family.
    public var family: Int
    /// The numeric part (numbers, booleans as 0/1); 0 for families ordered by text.
    public var number: Double
    /// The text part (strings, dates as normalised timestamps, other values in a canonical form).
    public var text: String

    public init(family: Int, number: Double = 0, text: String = "") {
        self.family = family
        self.number = number
        self.text = text
    }

    public static func < (a: CollationKey, b: CollationKey) -> Bool {
        if a.family != b.family { return a.family < b.family }
        if a.number != b.number { return a.number < b.number }
        return a.text < b.text
    }
}
