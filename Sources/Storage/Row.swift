/// One result row: column names (as the statement reports them) and their values, in order.
public struct Row: Sendable, Hashable {
    /// Column names in result order.
    public let columns: [String]
    /// Values in result order; same count as `columns`.
    public let values: [SQLValue]

    /// Builds a row; `values` is padded with `.null` or truncated to match `columns`.
    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        if values.count == columns.count {
            self.values = values
        } else if values.count > columns.count {
            self.values = Array(values.prefix(columns.count))
        } else {
            self.values = values + Array(repeating: .null, count: columns.count - values.count)
        }
    }

    /// The value at `index`, or `.null` when out of range (never traps).
    public subscript(_ index: Int) -> SQLValue {
        guard index >= 0, index < values.count else { return .null }
        return values[index]
    }

    /// The value of the first column named `name` (exact match first, then case-insensitive, as SQL
    /// identifiers are), or `.null` when there is no such column.
    public subscript(_ name: String) -> SQLValue {
        if let i = columns.firstIndex(of: name) { return self[i] }
        let lower = name.lowercased()
        if let i = columns.firstIndex(where: { $0.lowercased() == lower }) { return self[i] }
        return .null
    }

    /// Number of columns.
    public var count: Int { columns.count }
}
