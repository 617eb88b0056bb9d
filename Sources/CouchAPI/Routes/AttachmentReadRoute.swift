import Core
import HTTP
import Storage

/// `GET|HEAD /{db}/{docid}/{att}` (spec §3.5.2): the stored bytes, streamed from the blob store; 304 for an
/// `If-None-Match` naming the digest.
enum AttachmentReadRoute {
    static func handle(_ call: CouchCall, database: String, documentID: PathSegment, name segments: [PathSegment]) throws -> HTTPResponse {
        guard documentID.invalidBytes == nil else { throw CouchError.missing }
        let id = documentID.text
        // Attachment names may contain `/`: the segments after the id are joined again.
        let name = try AttachmentName.validate(utf8: Array(segments.map(\.bytes).joined(separator: [UInt8(ascii: "/")])))
        let rev = try call.query.value("rev").map { text throws(CouchError) in try RevID(parsing: text) }
        let attachment = try call.store.read { reader -> StoredAttachment in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            guard let doc = try reader.document(databaseID: db.id, id: id), let winner = doc.tree.winner else {
                throw CouchError.missing
            }
            if rev == nil, winner.deleted { throw CouchError.deleted }
            guard let stored = try reader.revision(documentRowID: doc.rowID, rev: rev ?? winner.rev) else {
                throw CouchError.missing
            }
            guard let attachment = stored.attachments.first(where: { $0.name == name }) else {
                throw CouchError(status: 404, error: "not_found", reason: "Document is missing attachment")
            }
            return attachment
        }
        guard let path = call.context.blobs.path(for: attachment.blobHash) else {
            throw CouchStoreError.corrupt("attachment blob \(attachment.blobHash) is missing")
        }
        let length = Int(attachment.encodedLength ?? attachment.length)
        let md5 = String(attachment.digest.dropFirst(4))
        let validators = Validators(etag: Validators.strongETag(md5))
        if validators.isNotModified(call.request) {
            // `If-None-Match` naming the digest (§3.5.2): 304 with the ETag and no body.
            var headers = HTTPHeaders()
            validators.addHeaders(to: &headers, notModified: true)
            return HTTPResponse(status: .notModified, headers: headers, body: .empty)
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", attachment.contentType)
        headers.add("ETag", "\"\(md5)\"")
        headers.add("Content-MD5", md5)
        headers.add("Accept-Ranges", "bytes")
        headers.add("Cache-Control", "must-revalidate")
        return HTTPResponse(status: .ok, headers: headers, body: .file(path: path, offset: 0, length: length))
    }
}
