/// A `QueryPlan` rendered as SQL over `parse_objects` (table alias `o`): WHERE terms, ORDER BY terms and
/// paging. Every value is a bound parameter; identifiers come from validated names only.
struct CompiledQuery: Sendable {
    var className: String
    /// SQL conditions, ANDed.
    var conditions: [String] = []
    var args: [SQLScalar] = []
    /// ORDER BY terms (creation order is appended by the store as the final tie-breaker).
    var order: [String] = []
    var orderArgs: [SQLScalar] = []
    var limit: Int?
    var skip: Int = 0

    init(className: String) { self.className = className }

    mutating func add(_ condition: String, _ values: [SQLScalar] = []) {
        conditions.append(condition)
        args.append(contentsOf: values)
    }
}
