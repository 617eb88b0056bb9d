import Core

/// Which id index a listing walks (spec §3.6).
public enum DocumentIndex: Sendable, Hashable {
    /// `_all_docs`: documents whose winner is live, design documents included.
    case all
    /// `_design_docs`: the live documents whose id starts with `_design/`.
    case design
    /// `_local_docs`: `_local/` documents.
    case local
}

/// One end of an id range, in byte order of the UTF-8 ids.
public struct KeyBound: Sendable, Hashable {
    /// The id at the bound.
    public var key: String
    /// Whether `key` itself lies inside the range.
    public var inclusive: Bool

    /// A bound.
    public init(_ key: String, inclusive: Bool) {
        self.key = key
        self.inclusive = inclusive
    }
}

/// A range of an index, bounds in byte order whatever the iteration order.
public struct KeyRange: Sendable, Hashable {
    /// Lowest ids included (nil: from the first).
    public var low: KeyBound?
    /// Highest ids included (nil: to the last).
    public var high: KeyBound?

    /// A range; both bounds absent means the whole index.
    public init(low: KeyBound? = nil, high: KeyBound? = nil) {
        self.low = low
        self.high = high
    }
}

/// A page of an index: its range, direction, `skip` and `limit` (§3.6).
public struct DocumentListQuery: Sendable, Hashable {
    /// The index.
    public var index: DocumentIndex
    /// The ids to walk.
    public var range = KeyRange()
    /// Walk from the high end.
    public var descending = false
    /// Entries skipped first.
    public var skip = 0
    /// Most entries returned; nil: all.
    public var limit: Int?
    /// Whether rows carry the winner's body, stubs and tree (`include_docs`).
    public var includeDocuments = false

    /// A query over the whole of `index`, ascending.
    public init(index: DocumentIndex) { self.index = index }
}

/// One entry of an index page.
public struct DocumentListRow: Sendable {
    /// The document id (the key of the row).
    public let id: String
    /// The winning revision (`0-N` for `_local` documents).
    public let rev: String
    /// With `includeDocuments`: the winner's body (compact JSON object text).
    public let body: [UInt8]?
    /// With `includeDocuments`: the winner's `_attachments` stubs, nil when it has none.
    public let attachments: [UInt8]?
    /// With `includeDocuments`: the revision forest (nil for `_local` documents, which have none).
    public let tree: RevTree?
}
