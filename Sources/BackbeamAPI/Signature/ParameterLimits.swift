/// Bounds on what one request's parameters may demand (§2.5), each configurable.
///
/// They are checked while decoding, so a hostile request is refused before it has cost more than one
/// pass over its bytes. Exceeding any of them answers 400 `InvalidParameters`.
public struct ParameterLimits: Sendable, Equatable {
    /// Most name/value pairs in one request, query string and body together (§2.5: 2,000).
    public var maxParameters: Int
    /// Longest decoded parameter name in UTF-8 bytes. The spec sets no number; the longest legitimate
    /// names are commands on 64-character field ids (`set-<field>#rt`) and push option keys, so 1 KiB
    /// leaves ample room while keeping names out of the value budget.
    public var maxNameBytes: Int
    /// Longest decoded value in UTF-8 bytes (§2.5: a single field value at most 1 MiB).
    public var maxValueBytes: Int
    /// Most elements in one list parameter. 1,000 is the BQL `params` bound of §6.5; no other list
    /// (`add-*`, `rem-*`, `channels`) has a use for more in one request.
    public var maxListLength: Int

    /// The defaults of §2.5 and §6.5.
    public init(maxParameters: Int = 2_000, maxNameBytes: Int = 1_024, maxValueBytes: Int = 1 << 20,
                maxListLength: Int = 1_000) {
        self.maxParameters = maxParameters
        self.maxNameBytes = maxNameBytes
        self.maxValueBytes = maxValueBytes
        self.maxListLength = maxListLength
    }
}
