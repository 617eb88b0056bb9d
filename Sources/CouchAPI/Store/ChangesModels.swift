/// Which documents a read of the changes index returns (§3.11.1 `filter`).
public enum ChangesSelection: Sendable, Hashable {
    /// Every document.
    case all
    /// Only the documents with these ids (`filter=_doc_ids`), each id once.
    case documentIDs([String])
    /// Only design documents (`filter=_design`).
    case design
}

/// One read of the changes index (§3.11.2): the rows after a sequence in ascending order, or before one in
/// descending order, of the selected documents, at most `limit` of them.
public struct ChangesRead: Sendable, Hashable {
    /// The database incarnation.
    public var databaseID: Int64
    /// Rows with a sequence above this (ascending) or below it (`descending`).
    public var from: Int64
    /// Newest first.
    public var descending: Bool
    /// Which documents.
    public var selection: ChangesSelection
    /// Most rows returned (at least 1).
    public var limit: Int
    /// Decode each row's revision tree (`style=all_docs`, `conflicts`).
    public var includeTree: Bool
    /// Copy each row's winner body and attachment stubs (`include_docs`).
    public var includeDocument: Bool

    /// A read of `databaseID` from `from` on.
    public init(databaseID: Int64, from: Int64, descending: Bool = false, selection: ChangesSelection = .all,
                limit: Int, includeTree: Bool = false, includeDocument: Bool = false) {
        self.databaseID = databaseID
        self.from = from
        self.descending = descending
        self.selection = selection
        self.limit = max(1, limit)
        self.includeTree = includeTree
        self.includeDocument = includeDocument
    }
}

/// One row of the changes index: a document at its current sequence, with its winner.
public struct ChangeRecord: Sendable {
    /// The sequence of the write that last changed the document's tree.
    public let seq: Int64
    /// The document id.
    public let id: String
    /// Row id of the document (the key of its revisions).
    public let rowID: Int64
    /// The winning revision's id text.
    public let rev: String
    /// Whether the winner is a tombstone.
    public let deleted: Bool
    /// The revision forest, when the read asked for it.
    public let tree: RevTree?
    /// The winner's body (compact JSON object text), when the read asked for documents.
    public let body: [UInt8]?
    /// The winner's `_attachments` stubs (JSON object text), when asked for and the winner has attachments.
    public let attachments: [UInt8]?

    /// A row.
    public init(seq: Int64, id: String, rowID: Int64, rev: String, deleted: Bool, tree: RevTree? = nil,
                body: [UInt8]? = nil, attachments: [UInt8]? = nil) {
        self.seq = seq
        self.id = id
        self.rowID = rowID
        self.rev = rev
        self.deleted = deleted
        self.tree = tree
        self.body = body
        self.attachments = attachments
    }
}
