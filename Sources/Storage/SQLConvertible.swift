/// A Swift value that can be bound as a statement argument.
public protocol SQLConvertible {
    /// The value in one of SQLite's storage classes.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLConvertible {
    /// The value itself.
    public var sqlValue: SQLValue { self }
}

extension Int: SQLConvertible {
    /// An `.integer` (Int is 64-bit on every supported platform, so this never truncates).
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLConvertible {
    /// An `.integer`.
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int32: SQLConvertible {
    /// An `.integer`.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLConvertible {
    /// A `.real`.
    public var sqlValue: SQLValue { .real(self) }
}

extension Bool: SQLConvertible {
    /// `.integer(1)` or `.integer(0)`.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension String: SQLConvertible {
    /// A `.text`.
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLConvertible {
    /// A `.text`.
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Array: SQLConvertible where Element == UInt8 {
    /// A `.blob`.
    public var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLConvertible where Wrapped: SQLConvertible {
    /// The wrapped value, or `.null`.
    public var sqlValue: SQLValue {
        switch self {
        case .some(let value): return value.sqlValue
        case .none: return .null
        }
    }
}
