/// A parsed query with its `params` attached (§6.1: positional, in textual order).
public struct BQLBoundQuery: Sendable, Equatable {
    /// The query.
    public let query: BQLQuery
    /// The parameters, exactly `query.placeholderCount` of them.
    public let params: [String]

    /// Attaches `params` to `query`. More than `limits.maxParams` parameters, or a count different from
    /// the number of `?`, is an `InvalidParameters` error (§6.1, §6.5).
    public static func bind(_ query: BQLQuery, params: [String], limits: BQLLimits = BQLLimits()) throws(BQLError) -> BQLBoundQuery {
        guard params.count <= limits.maxParams else {
            throw BQLError(.parameterCount, "More than \(limits.maxParams) params")
        }
        guard params.count == query.placeholderCount else {
            throw BQLError(.parameterCount,
                           "The query has \(query.placeholderCount) '?' but \(params.count) params were given")
        }
        return BQLBoundQuery(query: query, params: params)
    }

    private init(query: BQLQuery, params: [String]) {
        self.query = query
        self.params = params
    }

    /// The text a value stands for: the bound parameter, or a number literal as written (literals are
    /// bound like parameters, §6.1). Placeholder indexes come from the parser and were counted against
    /// `params` in `bind`, so the lookup is in range; an out-of-range index (only possible by building
    /// a query by hand) gives the empty string rather than a trap.
    public func text(of value: BQLValue) -> String {
        switch value {
        case .number(let literal): return literal
        case .placeholder(let i), .placeholderRelation(let i, _):
            return params.indices.contains(i) ? params[i] : ""
        }
    }
}
