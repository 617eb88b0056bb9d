import Core
import Storage

/// Where the attachment data of a listing comes from, for code that runs after the request's call is gone
/// (change feeds): the blob store and `couch.maxAttachmentSize`.
struct AttachmentSource: Sendable {
    let blobs: BlobStore
    let budget: Int
}

/// The `_attachments` of documents in answers that carry many of them: `_all_docs` and `_changes` with
/// `include_docs=true`, and `_bulk_get` (spec §3.6, §3.8, §3.11). As CouchDB, `attachments=true` inlines the
/// identity data as base64 (gzip-stored data decoded, §3.5.1) and `att_encoding_info=true` adds `encoding` and
/// `encoded_length` for gzip-stored attachments; the text is what a document read gives (`AttachmentData`).
///
/// Memory: such an answer is built whole (the server has no back-pressure on streamed bodies, so streaming
/// would buffer the same bytes), so the inline data of one answer is bounded by `budget` bytes (identity size,
/// `couch.maxAttachmentSize`): the first document with data always fits, as its own document read would; a later
/// one that would go past the budget does not (`fits`), and `text` then refuses it with `tooMuchData`.
struct ListedAttachments {
    /// `attachments=true` (in `_bulk_get` also an entry's `atts_since`): inline data.
    var data: Bool
    /// `att_encoding_info=true`.
    let encodingInfo: Bool
    let blobs: BlobStore
    /// `couch.maxAttachmentSize`: the largest attachment read, and the inline bytes of one answer.
    let budget: Int
    /// Inline identity bytes used so far.
    private(set) var used: Int64 = 0
    /// Documents that brought inline data so far.
    private(set) var documents = 0

    init(data: Bool, encodingInfo: Bool, blobs: BlobStore, budget: Int) {
        self.data = data
        self.encodingInfo = encodingInfo
        self.blobs = blobs
        self.budget = budget
    }

    init(data: Bool, encodingInfo: Bool, source: AttachmentSource) {
        self.init(data: data, encodingInfo: encodingInfo, blobs: source.blobs, budget: source.budget)
    }

    /// The answer would hold more inline attachment data than `couch.maxAttachmentSize`.
    static let tooMuchData = CouchError(status: 413, error: "too_large",
                                        reason: "The attachment data of these documents is larger than the server's attachment size limit; ask for fewer documents at a time.")

    /// Whether the stored stubs text of a document is not what the answer shows: data or encodings asked for.
    var needsRevision: Bool { data || encodingInfo }

    /// Whether a document whose attachments are `attachments` fits in what is left of the budget.
    func fits(_ attachments: [StoredAttachment], since: Int = AttachmentData.everyAttachment) -> Bool {
        guard data, documents > 0 else { return true }
        let size = AttachmentData.inlineSize(attachments, since: since)
        return size == 0 || size <= Int64(budget) - used
    }

    /// The `_attachments` text of a revision whose attachments are `attachments` (nil: none); data for those
    /// newer than generation `since`. Throws `tooMuchData` past the budget.
    mutating func text(_ attachments: [StoredAttachment], since: Int = AttachmentData.everyAttachment) throws -> [UInt8]? {
        guard data, AttachmentData.needsData(attachments, since: since) else {
            return AttachmentJSON.stubsText(attachments, encodingInfo: encodingInfo)
        }
        guard fits(attachments, since: since) else { throw Self.tooMuchData }
        let size = AttachmentData.inlineSize(attachments, since: since)
        let (total, overflow) = used.addingReportingOverflow(size)
        used = overflow ? .max : total
        documents += 1
        return try AttachmentData.text(attachments, since: since, blobs: blobs, limit: budget, encodingInfo: encodingInfo)
    }

    /// The attachments of the winning revision of document `id` (a listing row keeps only their stubs text).
    static func winner(_ reader: any CouchReader, databaseID: Int64, id: String) throws -> [StoredAttachment] {
        guard let doc = try reader.document(databaseID: databaseID, id: id), let winner = doc.tree.winner else {
            throw CouchStoreError.corrupt("listed document \(id) has no winner")
        }
        return try revision(reader, rowID: doc.rowID, rev: winner.rev)
    }

    /// The attachments of revision `rev` of the document stored under `rowID`.
    static func revision(_ reader: any CouchReader, rowID: Int64, rev: RevID) throws -> [StoredAttachment] {
        guard let revision = try reader.revision(documentRowID: rowID, rev: rev) else {
            throw CouchStoreError.corrupt("winning revision \(rev) has no stored body")
        }
        return revision.attachments
    }
}
