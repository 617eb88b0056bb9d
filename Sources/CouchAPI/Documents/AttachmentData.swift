import Core
import Storage

/// The `_attachments` of a revision in a read that asks for data (`attachments=true`, `atts_since`; spec
/// §3.5.1, §5.6): inline base64 for the attachments newer than the `atts_since` ancestor, stubs for the rest.
enum AttachmentData {
    /// The generation whose attachments the reader already has: the first revision of `attsSince` on the path
    /// from `rev` to the root (0 when none is on the path), or `everyAttachment` without `atts_since`.
    static func sinceGeneration(_ tree: RevTree, rev: RevID, attsSince: [RevID]?) -> Int {
        attsSince.map { tree.attachmentsSinceGeneration(for: rev, known: $0) } ?? everyAttachment
    }

    /// The `since` of a read without `atts_since`: every attachment goes with data. Not 0, because a replicated
    /// write keeps the `revpos` it carries, 0 when absent (§4.7), and CouchDB sends such an attachment's data
    /// like any other's; only an `atts_since` with no revision on the path (A = 0, §5.6) leaves it a stub.
    static let everyAttachment = -1

    /// Whether any attachment has to be sent with data.
    static func needsData(_ attachments: [StoredAttachment], since: Int) -> Bool {
        attachments.contains { $0.revpos > since }
    }

    /// The identity bytes the attachments newer than `since` bring inline (before base64).
    static func inlineSize(_ attachments: [StoredAttachment], since: Int) -> Int64 {
        attachments.reduce(into: Int64(0)) { sum, attachment in
            guard attachment.revpos > since else { return }
            let (total, overflow) = sum.addingReportingOverflow(max(0, attachment.length))
            sum = overflow ? .max : total
        }
    }

    /// The `_attachments` object as compact JSON text (nil for no attachments). Each attachment's bytes are read
    /// from the blob store whole (at most `couch.maxAttachmentSize`); gzip-stored data is decoded before base64
    /// (§3.5.1). `encodingInfo` (`att_encoding_info=true`): gzip-stored attachments say so, stubs and data alike.
    static func text(_ attachments: [StoredAttachment], since: Int, blobs: BlobStore, limit: Int,
                     encodingInfo: Bool = false) throws -> [UInt8]? {
        guard !attachments.isEmpty else { return nil }
        var object = JSONObject()
        for attachment in attachments {
            guard attachment.revpos > since else {
                object[attachment.name] = AttachmentJSON.stub(attachment, encodingInfo: encodingInfo)
                continue
            }
            let bytes = try AttachmentStorage.identityBytes(attachment, blobs: blobs, limit: limit)
            object[attachment.name] = AttachmentJSON.inline(attachment, data: bytes, encodingInfo: encodingInfo)
        }
        return JSON.object(object).serializedBytes()
    }
}
