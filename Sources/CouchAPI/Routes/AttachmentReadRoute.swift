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
        let md5 = String(attachment.digest.dropFirst(4))
        let validators = Validators(etag: Validators.strongETag(md5))
        if validators.isNotModified(call.request) {
            // `If-None-Match` naming the digest (§3.5.2): 304 with the ETag and no body.
            var headers = HTTPHeaders()
            validators.addHeaders(to: &headers, notModified: true)
            return HTTPResponse(status: .notModified, headers: headers, body: .empty)
        }
        let storedLength = Int(attachment.encodedLength ?? attachment.length)
        // gzip-stored data goes as stored to a client that accepts gzip, decoded to any other (§3.5.2).
        let gzipStored = attachment.encoding == "gzip"
        let sendsStored = !gzipStored || AcceptEncoding.allowsGzip(call.request.headers["Accept-Encoding"])
        let length = sendsStored ? storedLength : Int(attachment.length)
        var headers = HTTPHeaders()
        headers.add("Content-Type", attachment.contentType)
        headers.add("ETag", "\"\(md5)\"")
        headers.add("Cache-Control", "must-revalidate")
        if gzipStored, sendsStored { headers.add("Content-Encoding", "gzip") }
        headers.add("Accept-Ranges", gzipStored ? "none" : "bytes")
        // CouchDB reads `Range` against the length it sends and refuses an unsatisfiable one whatever the
        // encoding, but honours ranges on identity-stored attachments only.
        if let ranges = try AttachmentRanges.parse(call.request.headers["Range"], length: length), !gzipStored,
           let partial = try rangeResponse(ranges, path: path, length: length, contentType: attachment.contentType,
                                           headers: headers) {
            return partial
        }
        // The digest covers the stored bytes: no `Content-MD5` over decoded ones.
        if sendsStored { headers.add("Content-MD5", md5) }
        if sendsStored { return HTTPResponse(status: .ok, headers: headers, body: .file(path: path, offset: 0, length: length)) }
        if call.method == .head {
            // HEAD sends the head alone: the stored file stands in for a body that is never read, so that
            // `Content-Length` is the decoded length without decoding anything.
            return HTTPResponse(status: .ok, headers: headers, body: .file(path: path, offset: 0, length: length))
        }
        let decoded = try AttachmentStorage.identityBytes(attachment, blobs: call.context.blobs, limit: Int.max)
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(decoded))
    }

    /// 206 for one range (`Content-Range`, sent from the file) or several (`multipart/byteranges`, §3.5.2); nil
    /// when the whole attachment goes instead: more than `maxRanges` ranges, or ranges that add up to more
    /// than the attachment (overlaps would make the answer larger than the whole).
    private static func rangeResponse(_ ranges: [ClosedRange<Int>], path: String, length: Int, contentType: String,
                                      headers: HTTPHeaders) throws -> HTTPResponse? {
        var headers = headers
        if ranges.count == 1, let range = ranges.first {
            headers.add("Content-Range", AttachmentRanges.contentRange(range, length: length))
            return HTTPResponse(status: .partialContent, headers: headers,
                                body: .file(path: path, offset: range.lowerBound, length: range.count))
        }
        guard ranges.count <= AttachmentRanges.maxRanges, ranges.reduce(0, { $0 + $1.count }) <= length else { return nil }
        let boundary = Hex.encode(Crypto.randomBytes(16))
        let body = try AttachmentRanges.multipart(ranges, length: length, contentType: contentType, boundary: boundary) { range in
            try AttachmentStorage.read(path: path, offset: range.lowerBound, count: range.count)
        }
        headers.set("Content-Type", "multipart/byteranges; boundary=\"\(boundary)\"")
        return HTTPResponse(status: .partialContent, headers: headers, body: .bytes(body))
    }
}
