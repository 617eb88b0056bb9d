import Core

/// An attachment as a document write names it (§3.5.1, §5.6).
public enum AttachmentInput: Sendable, Hashable {
    /// `{"stub":true}`: keep the attachment of this name from the reference revision (the parent for
    /// interactive writes, §5.6 for replicated ones). `revpos`, when sent, must match the stored one.
    case stub(name: String, revpos: Int?)
    /// Data that arrived with the request (or a copy's source), already written to the blob store. For
    /// interactive writes `revpos` becomes the new revision's generation unless `keepRevpos` (COPY);
    /// replicated writes always keep the `revpos` they carry.
    case data(StoredAttachment, keepRevpos: Bool)

    /// The attachment's name.
    public var name: String {
        switch self {
        case .stub(let name, _): return name
        case .data(let attachment, _): return attachment.name
        }
    }
}

/// One document write, validated and ready for the writer (spec §5.3, §5.4).
public struct DocumentEdit: Sendable {
    /// How the new revision relates to the tree.
    public enum Mode: Sendable, Hashable {
        /// An edit (§5.3) naming `requested` as its parent (nil: a create or a re-creation).
        case interactive(requested: RevID?)
        /// A replicated revision and its ancestry (§5.4), ids kept as given.
        case replicated(RevPath)
    }

    /// The document id (validated).
    public var id: String
    /// Interactive or replicated.
    public var mode: Mode {
        didSet { revisionText = Self.revisionText(mode) }
    }
    /// Whether the new revision is a tombstone.
    public var deleted: Bool
    /// The body without special members (hashed into interactive revision ids). Replicated edits keep the
    /// ids they carry and never hash it: the replicated `_bulk_docs` reader leaves it empty, and so does
    /// a document `PUT` read without a tree (which sets `bodyTerm` instead).
    public var body: JSONObject
    /// The body's revision term (§4.5) when the edit was read without a tree: then the revision id hashes
    /// these bytes, not `body`. Nil for every other edit.
    var bodyTerm: [UInt8]?
    /// `body` as compact JSON text, as it is stored and sent.
    public var bodyText: [UInt8] {
        didSet { bodyString = String(decoding: bodyText, as: UTF8.self) }
    }
    /// `bodyText` as the string the store binds, made here so the writer thread does not copy it.
    public private(set) var bodyString: String
    /// For replicated edits: the text of the revision written (`mode`'s newest), made here for the same
    /// reason (the store writes it, and a failed `_bulk_docs` element names it).
    public private(set) var revisionText: String?
    /// The new revision's attachments in order; empty for none.
    public var attachments: [AttachmentInput]
    /// For interactive edits without stubs: the revision id the edit gets when its parent is the requested
    /// revision, computed before the write so the writer thread only hashes when the parent turns out
    /// different (a re-creation). Nil: the writer computes it.
    public var speculativeRev: RevID?

    /// An edit; `speculativeRev` is computed here for interactive edits without stubs.
    public init(id: String, mode: Mode, deleted: Bool, body: JSONObject, bodyText: [UInt8],
                attachments: [AttachmentInput] = []) throws(CouchError) {
        self.id = id
        self.mode = mode
        self.deleted = deleted
        self.body = body
        self.bodyText = bodyText
        bodyString = String(decoding: bodyText, as: UTF8.self)
        self.attachments = attachments
        speculativeRev = nil
        revisionText = Self.revisionText(mode)
        if case .interactive(let requested) = mode, let entries = Self.hashEntries(attachments) {
            speculativeRev = try RevisionHash.newRevID(parent: requested, deleted: deleted, body: body,
                                                      attachments: entries)
        }
    }

    /// An interactive edit without attachments whose body was read without a tree (`SingleDocumentReader`):
    /// `bodyText` is the body's compact text and `bodyTerm` its revision term.
    init(id: String, requested: RevID?, deleted: Bool, bodyText: [UInt8], bodyTerm: [UInt8]) throws(CouchError) {
        self.id = id
        mode = .interactive(requested: requested)
        self.deleted = deleted
        body = JSONObject()
        self.bodyTerm = bodyTerm
        self.bodyText = bodyText
        bodyString = String(decoding: bodyText, as: UTF8.self)
        attachments = []
        revisionText = nil
        speculativeRev = try RevisionHash.newRevID(parent: requested, deleted: deleted, body: .term(bodyTerm))
    }

    /// The body as the revision id hashes it.
    var hashedBody: RevisionHash.Body {
        if let bodyTerm { return .term(bodyTerm) }
        return .tree(body)
    }

    private static func revisionText(_ mode: Mode) -> String? {
        guard case .replicated(let path) = mode else { return nil }
        return path.newest.description
    }

    /// The hash entries of attachments that all carry data (nil when one is a stub or lacks an MD5).
    static func hashEntries(_ attachments: [AttachmentInput]) -> [RevisionHashAttachment]? {
        var entries: [RevisionHashAttachment] = []
        entries.reserveCapacity(attachments.count)
        for attachment in attachments {
            guard case .data(let stored, _) = attachment, let entry = stored.hashEntry else { return nil }
            entries.append(entry)
        }
        return entries
    }
}

/// What became of one edit.
public enum EditOutcome: Sendable, Hashable {
    /// Stored (or, for a replicated revision already present, nothing to do): the revision written.
    case ok(RevID)
    /// Refused; nothing of this edit was stored.
    case failed(CouchError)
}
