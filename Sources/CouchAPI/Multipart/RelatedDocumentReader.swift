import Core
import HTTP

/// Reads a multipart/related document write (spec §5.11.1) as `Multipart.stream` scans it: the first part is the
/// JSON document (at most `maxDocumentPart` bytes, `Content-Type: application/json`), each later part the data of
/// one `"follows":true` attachment, spooled as it arrives (at most `maxAttachment` bytes each) while its size and
/// MD5 are counted. `attachments(replicated:)` then matches parts to attachments, checks them and publishes them.
///
/// An identity part of a type `compression` takes is stored gzip-compressed, as inline data and standalone
/// `PUT`s are (§4.7) and as CouchDB's `couch_db:with_stream` does for every identity attachment: compressed as it
/// arrives, its `digest` the MD5 of the compressed bytes, while a `digest` the client sent is checked against the
/// bytes received. Which attachment a part belongs to is only sure once every part is read (by filename, or by
/// order, `match`); when the two candidates disagree on compression the part is kept both ways until then.
///
/// A refusal while scanning is kept in `failure` (the scanner sees `MultipartError.rejected`); the caller then
/// calls `discardAll()`, so no spooled byte outlives a failed request.
struct RelatedDocumentReader: MultipartConsumer {
    /// Size bounds of the parts.
    struct Limits: Sendable {
        /// Largest JSON part.
        var maxDocumentPart: Int
        /// Largest attachment part (stored bytes).
        var maxAttachment: Int
    }

    let limits: Limits
    /// Which identity parts are stored compressed.
    let compression: AttachmentCompression
    private let makeSpool: () throws -> any AttachmentSpool
    /// The document, once its part is complete.
    private(set) var document: JSONObject?
    /// Its `follows` attachments, in member order.
    private(set) var follows: [FollowsAttachment] = []
    /// The attachment parts received, in body order.
    private(set) var parts: [ReceivedPart] = []
    /// Why the body was refused, when it was.
    private(set) var failure: CouchError?
    /// The storage error behind a 500 `failure`, for the log (never for the client).
    private(set) var internalCause: String?
    private var documentBytes: [UInt8] = []
    private var readingDocument = false
    private var current: ReceivedPart?

    init(limits: Limits, compression: AttachmentCompression = .off, makeSpool: @escaping () throws -> any AttachmentSpool) {
        self.limits = limits
        self.compression = compression
        self.makeSpool = makeSpool
    }

    mutating func beginPart(_ headers: MultipartPartHeaders) throws(MultipartError) {
        guard document != nil else {
            // The first part: CouchDB checks its type before reading it (`couch_httpd_multipart:mp_parse_doc`).
            let type = headers.contentType.map { String($0.prefix { $0 != ";" }).trimmingSpaces().lowercased() }
            guard type == "application/json" else { try fail(.badContentType("Content-Type must be application/json")) }
            readingDocument = true
            return
        }
        guard parts.count < follows.count else {
            try fail(.badRequest("The multipart body has more attachment parts than attachments marked follows"))
        }
        let claims: (filename: String?, length: Int64?, gzip: Bool)
        do {
            claims = try ReceivedPart.claims(headers)
        } catch {
            try fail(error)
        }
        // The attachments this part may belong to: the one in its position, and the one its filename names.
        var candidates = [follows[parts.count]]
        if let filename = claims.filename, let named = follows.first(where: { $0.name == filename }) { candidates.append(named) }
        let compressing = candidates.map { compresses($0, partGzip: claims.gzip) }
        var made: [any AttachmentSpool] = []
        do {
            let keepsReceived = compressing.contains(false)
            let spool = keepsReceived ? try makeSpool() : nil
            if let spool { made.append(spool) }
            var packed: ReceivedPart.Packed?
            if compressing.contains(true) {
                let packedSpool = try makeSpool()
                made.append(packedSpool)
                packed = ReceivedPart.Packed(spool: packedSpool, deflater: try compression.deflater())
            }
            current = ReceivedPart(filename: claims.filename, contentLength: claims.length, gzip: claims.gzip, spool: spool,
                                   packed: packed)
        } catch {
            for spool in made { spool.discard() }
            internalCause = "\(error)"
            try fail(.internalError)
        }
    }

    /// Whether the part of `attachment` is stored compressed: identity data (neither the JSON nor the part's
    /// headers say gzip) of a compressible type.
    private func compresses(_ attachment: FollowsAttachment, partGzip: Bool) -> Bool {
        !(attachment.gzip || partGzip) && compression.compresses(attachment.contentType)
    }

    mutating func partContent(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        if readingDocument {
            guard bytes.count <= limits.maxDocumentPart - documentBytes.count else { try fail(.tooLarge) }
            documentBytes.append(contentsOf: bytes)
            return
        }
        guard let part = current else { throw .malformed("internal state") }
        guard Int64(bytes.count) <= Int64(limits.maxAttachment) - part.size else {
            try fail(.attachmentTooLarge(tentativeName(of: part)))
        }
        do {
            try part.append(bytes)
        } catch {
            internalCause = "\(error)"
            try fail(.internalError)
        }
    }

    mutating func endPart() throws(MultipartError) {
        if readingDocument {
            readingDocument = false
            do throws(CouchError) {
                guard case .object(let object) = try CouchJSON.parseRequest(documentBytes) else { throw CouchError.documentNotObject }
                follows = try FollowsAttachment.list(in: object)
                document = object
                documentBytes = []
            } catch {
                try fail(error)
            }
            return
        }
        guard let part = current else { throw .malformed("internal state") }
        do {
            try part.finish()
        } catch {
            internalCause = "\(error)"
            try fail(.internalError)
        }
        parts.append(part)
        current = nil
    }

    /// After the whole body was scanned: pairs every `follows` attachment with its part (§5.11.1: by
    /// `Content-Disposition` filename when every part names a distinct `follows` member, else by order), checks
    /// lengths and digests, and publishes the parts. Returns the attachments by name. On error nothing is
    /// published (a storage failure while publishing may leave earlier parts published but unreferenced, which
    /// blob garbage collection removes); the caller discards the spools. `report` receives a storage error.
    func attachments(replicated: Bool, report: (String) -> Void = { _ in }) throws(CouchError) -> [String: StoredAttachment] {
        guard document != nil else { throw CouchError.badRequest("The multipart body has no JSON document part") }
        guard parts.count == follows.count else {
            throw CouchError.badRequest("The multipart body has fewer attachment parts than attachments marked follows")
        }
        let order = Self.match(follows.map(\.name), filenames: parts.map(\.filename))
        var checked: [(FollowsAttachment, ReceivedPart)] = []
        for (index, attachment) in follows.enumerated() {
            let part = parts[order[index]]
            try Self.check(part, against: attachment)
            checked.append((attachment, part))
        }
        var result: [String: StoredAttachment] = [:]
        for (attachment, part) in checked {
            let revpos = replicated ? (attachment.revpos ?? 0) : 0
            do {
                if compresses(attachment, partGzip: part.gzip) {
                    guard let packed = part.packed else { throw CouchStoreError.corrupt("compressed part not kept") }
                    let hash = try packed.spool.publish()
                    part.spool?.discard()
                    // As CouchDB: the digest and encoded length are the compressed bytes', the length the received.
                    result[attachment.name] = StoredAttachment(
                        name: attachment.name, contentType: attachment.contentType, length: part.size,
                        digest: AttachmentDigest.string(md5: packed.md5), revpos: revpos,
                        encoding: "gzip", encodedLength: packed.size, blobHash: hash)
                    continue
                }
                guard let spool = part.spool else { throw CouchStoreError.corrupt("received part not kept") }
                let hash = try spool.publish()
                part.packed?.spool.discard()
                let gzip = attachment.gzip || part.gzip
                result[attachment.name] = StoredAttachment(
                    name: attachment.name, contentType: attachment.contentType,
                    // gzip data is stored as received: its identity length is the declared one (§4.7).
                    length: gzip ? (attachment.length ?? part.size) : part.size,
                    digest: AttachmentDigest.string(md5: part.md5), revpos: revpos,
                    encoding: gzip ? "gzip" : nil, encodedLength: gzip ? part.size : nil, blobHash: hash)
            } catch {
                report("\(error)")
                throw CouchError.internalError
            }
        }
        return result
    }

    /// Drops every spooled part (after a failure, or when the write is refused later).
    func discardAll() {
        current?.discard()
        for part in parts { part.discard() }
    }

    /// For each attachment name, the index of its part: by filename when every part has one, all distinct and
    /// each naming one of the attachments; otherwise the n-th attachment takes the n-th part (CouchDB's rule).
    /// `filenames` has as many entries as `names`.
    static func match(_ names: [String], filenames: [String?]) -> [Int] {
        let byOrder = Array(names.indices)
        let given = filenames.compactMap { $0 }
        guard given.count == filenames.count, Set(given).count == given.count, Set(given) == Set(names) else { return byOrder }
        var index: [String: Int] = [:]
        for (position, name) in given.enumerated() { index[name] = position }
        return names.map { index[$0] ?? 0 }
    }

    /// The size rules of §5.11.1 and the digest rule of §4.7 for one pair.
    static func check(_ part: ReceivedPart, against attachment: FollowsAttachment) throws(CouchError) {
        let gzip = attachment.gzip || part.gzip
        for expected in [gzip ? attachment.encodedLength : attachment.length, part.contentLength] {
            guard let expected else { continue }
            if part.size > expected { throw CouchError.badRequest("attachment longer than expected") }
            if part.size < expected { throw CouchError.badRequest("attachment shorter than expected") }
        }
        guard attachment.digestMatches(part.md5) else {
            throw CouchError(status: 400, error: "content_md5_mismatch", reason: "Possible message corruption.")
        }
    }

    /// The name a part will most likely be matched to, for the 413 that names it before matching is possible.
    private func tentativeName(of part: ReceivedPart) -> String {
        if let filename = part.filename, follows.contains(where: { $0.name == filename }) { return filename }
        return parts.count < follows.count ? follows[parts.count].name : (part.filename ?? "")
    }

    private mutating func fail(_ error: CouchError) throws(MultipartError) -> Never {
        failure = error
        throw .rejected
    }
}
