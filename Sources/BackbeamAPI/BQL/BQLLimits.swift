/// Bounds on one BQL text and its parameters (§6.5), each configurable. Checked while lexing and
/// parsing, so a hostile query costs one bounded pass.
public struct BQLLimits: Sendable, Equatable {
    /// Longest `q` or `joins` in UTF-16 code units (the length the SDKs' languages measure): 3,500.
    public var maxQueryLength: Int
    /// Most constraints in the whole text, `where` and every `having` together: 200.
    public var maxConstraints: Int
    /// Deepest parenthesis nesting: 32.
    public var maxDepth: Int
    /// Most joins: 10.
    public var maxJoins: Int
    /// Most fields after one `fetch`: 10.
    public var maxFetchFields: Int
    /// Most `params`: 1,000.
    public var maxParams: Int
    /// Most non-empty entries in one collection-constraint parameter: 5,000 (§6.2).
    public var maxCollectionEntries: Int

    /// The defaults of §6.5.
    public init(maxQueryLength: Int = 3_500, maxConstraints: Int = 200, maxDepth: Int = 32, maxJoins: Int = 10,
                maxFetchFields: Int = 10, maxParams: Int = 1_000, maxCollectionEntries: Int = 5_000) {
        self.maxQueryLength = maxQueryLength
        self.maxConstraints = maxConstraints
        self.maxDepth = maxDepth
        self.maxJoins = maxJoins
        self.maxFetchFields = maxFetchFields
        self.maxParams = maxParams
        self.maxCollectionEntries = maxCollectionEntries
    }
}
