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
}
