import Core
import HTTP
import Storage

/// `PUT` and `DELETE /{db}/{docid}/{att}` (spec §3.5.3, §3.5.4): each makes a new revision through the
/// ordinary interactive edit, with the parent's body and its other attachments kept as stubs.
enum AttachmentWriteRoute {
    static func handle(_ call: CouchCall, database: String, documentID: PathSegment, name segments: [PathSegment]) throws -> Reply {
        switch call.method {
        case .put: return try put(call, database: database, documentID: documentID, segments: segments)
        case .delete: return try delete(call, database: database, documentID: documentID, segments: segments)
        default: throw CouchError.methodNotAllowed(call.route.allowedMethods)
        }
    }

    /// `PUT`: the body becomes the attachment `name`, first in the new revision's list (§4.7 ordering).
    private static func put(_ call: CouchCall, database: String, documentID: PathSegment, segments: [PathSegment]) throws -> Reply {
        let (id, name, rev, gzip) = try DocumentWriteRoute.databaseFirst(call, database) { () throws -> (String, String, RevID?, Bool) in
            let id = try DocumentID.validate(utf8: documentID.bytes, maxLength: call.config.maxDocIdLength)
            try WritePermission.check(call, id: id)
            let name = try attachmentName(segments)
            var gzip = false
            if let encoding = call.request.headers["Content-Encoding"]?.trimmingSpaces(), !encoding.isEmpty,
               encoding.lowercased() != "identity" {
                // gzip data is stored as received (§3.5.3, P2); nothing else is understood.
                guard GzipRequestBody.isGzip(encoding) else {
                    throw CouchError.badContentType("Only gzip and identity content-encodings are supported")
                }
                gzip = true
            }
            guard call.request.body.count <= call.config.maxAttachmentSize else { throw CouchError.attachmentTooLarge(name) }
            return (id, name, try requestedRev(call), gzip)
        }
        let parent = try call.store.read { reader -> StoredRevision? in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            let doc = try reader.document(databaseID: db.id, id: id)
            guard let rev else {
                // Without a revision only a new (or deleted) document takes the attachment (§3.5.3).
                if let winner = doc?.tree.winner, !winner.deleted { throw CouchError.conflict }
                return nil
            }
            return try parentRevision(reader, doc: doc, rev: rev)
        }
        // The database, document and revision are checked before the body is read, as CouchDB does.
        let md5 = try digest(call.request.body)
        if let sent = call.request.headers["Content-MD5"]?.trimmingSpaces(), Base64.decode(sent) != md5 {
            throw CouchError(status: 400, error: "content_md5_mismatch", reason: "Possible message corruption.")
        }
        let body: JSONObject
        var attachments: [AttachmentInput] = []
        if let parent {
            guard case .object(let object) = try CouchJSON.parse(parent.body) else { throw CouchStoreError.corrupt("stored body") }
            body = object
        } else {
            body = JSONObject()
        }
        let contentType = call.request.headers["Content-Type"] ?? "application/octet-stream"
        let stored = gzip
            ? try AttachmentStorage.storeGzip(body: call.request.body, md5: md5, name: name, contentType: contentType,
                                              maxLength: call.config.maxAttachmentSize, blobs: call.context.blobs)
            : try AttachmentStorage.store(body: call.request.body, md5: md5, name: name, contentType: contentType,
                                          compression: call.config.attachmentCompression, blobs: call.context.blobs)
        attachments.append(.data(stored, keepRevpos: false))
        // The parent's other attachments follow as stubs, resolved against the parent inside the write job.
        for other in parent?.attachments ?? [] where other.name != name {
            attachments.append(.stub(name: other.name, revpos: other.revpos))
        }
        let bodyText = parent?.body ?? Array("{}".utf8)
        let edit = try DocumentEdit(id: id, mode: .interactive(requested: rev), deleted: false, body: body,
                                    bodyText: bodyText, attachments: attachments)
        let url = call.documentURL(database: database, id: id) + "/" + PathEncoding.segment(name)
        return DocumentWrites.submit(call, database: database, edit: edit, location: true, locationURL: url) { _ in .created }
    }

    /// `DELETE`: the parent's body and attachments without `name`.
    private static func delete(_ call: CouchCall, database: String, documentID: PathSegment, segments: [PathSegment]) throws -> Reply {
        guard documentID.invalidBytes == nil else { throw CouchError.missing }
        let id = documentID.text
        try WritePermission.check(call, id: id)
        let name = try attachmentName(segments)
        let rev = try requestedRev(call)
        let parent = try call.store.read { reader -> StoredRevision in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            let doc = try reader.document(databaseID: db.id, id: id)
            guard let rev else {
                // No revision: the usual 404s first, then the conflict CouchDB answers (§3.5.4).
                guard let doc, let winner = doc.tree.winner else { throw CouchError.missing }
                if winner.deleted { throw CouchError.deleted }
                guard let stored = try reader.revision(documentRowID: doc.rowID, rev: winner.rev),
                      stored.attachments.contains(where: { $0.name == name }) else { throw missingAttachment }
                throw CouchError.conflict
            }
            return try parentRevision(reader, doc: doc, rev: rev)
        }
        guard parent.attachments.contains(where: { $0.name == name }) else { throw missingAttachment }
        guard case .object(let body) = try CouchJSON.parse(parent.body) else { throw CouchStoreError.corrupt("stored body") }
        let attachments = parent.attachments.filter { $0.name != name }.map { AttachmentInput.stub(name: $0.name, revpos: $0.revpos) }
        let edit = try DocumentEdit(id: id, mode: .interactive(requested: rev), deleted: false, body: body,
                                    bodyText: parent.body, attachments: attachments)
        return DocumentWrites.submit(call, database: database, edit: edit, location: false) { _ in .ok }
    }

    static let missingAttachment = CouchError(status: 404, error: "not_found", reason: "Document is missing attachment")

    /// The name from the path segments after the id (re-joined with `/`), validated as §4.7 says.
    static func attachmentName(_ segments: [PathSegment]) throws -> String {
        try AttachmentName.validate(utf8: Array(segments.map(\.bytes).joined(separator: [UInt8(ascii: "/")])))
    }

    /// `?rev=` or `If-Match` (quotes removed); both present and different → 400, as CouchDB answers.
    static func requestedRev(_ call: CouchCall) throws -> RevID? {
        try DocumentETags.requestedRev(call)
    }

    /// The revision an edit names: unknown → 409 `not_found` "missing_rev"; known without a stored body
    /// (compacted, hence not a leaf) → 409 `conflict`. Whether it is still a leaf is checked by the write job.
    private static func parentRevision(_ reader: any CouchReader, doc: StoredDocument?, rev: RevID) throws -> StoredRevision {
        guard let doc, doc.tree.contains(rev) else { throw CouchError.missingRev }
        guard let stored = try reader.revision(documentRowID: doc.rowID, rev: rev) else { throw CouchError.conflict }
        return stored
    }

    /// The MD5 of the body, read chunk by chunk (a large body is a spooled file, never held whole).
    private static func digest(_ body: RequestBody) throws -> [UInt8] {
        if case .bytes(let bytes) = body { return Crypto.md5(bytes) }
        var stream = Crypto.MD5Stream()
        try body.forEachChunk { stream.update($0) }
        return stream.finalize()
    }
}
