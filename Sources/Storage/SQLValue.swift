/// A value bound to, or read from, a SQLite statement (SQLite's five storage classes).
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, or nil for any other storage class.
    public var int64: Int64? { if case .integer(let v) = self { return v }; return nil }
    /// The number as a double (integers widened), or nil.
    public var double: Double? {
        switch self {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
    /// The text, or nil.
    public var string: String? { if case .text(let v) = self { return v }; return nil }
    /// The blob bytes, or nil.
    public var bytes: [UInt8]? { if case .blob(let v) = self { return v }; return nil }
    /// True for SQL NULL.
    public var isNull: Bool { if case .null = self { return true }; return false }
    /// The integer narrowed to `Int`, or nil when not an integer (Int is 64-bit on supported platforms).
    public var int: Int? { int64.map { Int($0) } }
    /// The integer read as a boolean (0 is false, anything else true), or nil when not an integer.
    public var bool: Bool? { int64.map { $0 != 0 } }
}

extension SQLValue: ExpressibleByIntegerLiteral {
    /// An `.integer` literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
    /// A `.real` literal.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByStringLiteral {
    /// A `.text` literal.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByNilLiteral {
    /// The `.null` literal.
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByBooleanLiteral {
    /// SQLite has no boolean class: booleans are stored as the integers 0 and 1.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
