import Core
import HTTP

/// `GET|HEAD /{db}/{docid}` (spec §3.3.1) and `open_revs` (§3.3.2).
enum DocumentReadRoute {
    static func handle(_ call: CouchCall, database: String, id segment: PathSegment) throws -> HTTPResponse {
        // Bytes that are not UTF-8 can never name a stored document.
        guard segment.invalidBytes == nil else { throw CouchError.missing }
        let id = segment.text
        // In `_users` a user sees only their own document; any other is "missing" (§3.10).
        if !call.credentials.isServerAdmin, database == UsersDatabase.name, !UserWrites.mayRead(call, id: id) {
            throw CouchError.missing
        }
        let response = try answer(call, database: database, id: id)
        // One header lookup when there is no `If-None-Match`.
        guard call.request.headers["If-None-Match"] != nil else { return response }
        return notModified(call, response) ?? response
    }

    /// 304 with the `ETag` and no body when `If-None-Match` names the answer's ETag (P2, §3.3.1; a `W/`
    /// prefix is ignored: weak comparison). Answers without an ETag (metadata was asked for) never are.
    private static func notModified(_ call: CouchCall, _ response: HTTPResponse) -> HTTPResponse? {
        guard response.status == .ok, let etag = response.headers["ETag"] else { return nil }
        let validators = Validators(etag: etag)
        guard validators.isNotModified(call.request) else { return nil }
        var headers = HTTPHeaders()
        validators.addHeaders(to: &headers, notModified: true)
        return HTTPResponse(status: .notModified, headers: headers, body: .empty)
    }

    private static func answer(_ call: CouchCall, database: String, id: String) throws -> HTTPResponse {
        if call.query.isEmpty { return try plain(call, database: database, id: id, options: nil) }
        let options = try ReadOptions(call.query)
        if let openRevs = options.openRevs { return try OpenRevsRead.handle(call, database: database, id: id, openRevs, options) }
        // Attachment data needs the revision's attachment list, which only the detailed read loads.
        if !options.attachmentData, !options.attEncodingInfo, options.isPlain || (options.latest && options.isPlainApartFromRev) {
            return try plain(call, database: database, id: id, options: options)
        }
        return try detailed(call, database: database, id: id, options: options)
    }

    /// The winner from its stored copy: one lookup, bytes copied into the answer.
    private static func plain(_ call: CouchCall, database: String, id: String, options: ReadOptions?) throws -> HTTPResponse {
        let showDeleted = options?.deleted ?? false
        let lookup = try call.store.winner(database: database, docID: id) { winner -> Result<HTTPResponse, CouchError> in
            if winner.deleted && !showDeleted { return .failure(.deleted) }
            return .success(render(id: id, winner))
        }
        switch lookup {
        case .found(let result): return try result.get()
        case .missing: throw CouchError.missing
        case .noDatabase: throw CouchError.databaseMissing
        }
    }

    /// The plain read of a live document of at most `attemptMaxSize` bytes, answered where it is asked (an
    /// I/O thread, see `CouchHandler.attempt`); nil for everything else, which `handle` answers.
    static func attempt(_ call: CouchCall, database: String, id segment: PathSegment) -> HTTPResponse? {
        guard segment.invalidBytes == nil, call.query.isEmpty else { return nil }
        let id = segment.text
        guard let response = try? call.store.liveWinnerIfAtHand(database: database, docID: id, maxSize: attemptMaxSize,
                                                                 { winner in render(id: id, winner) }) else { return nil }
        // The same conditional answer as `handle` gives.
        guard call.request.headers["If-None-Match"] != nil else { return response }
        return notModified(call, response) ?? response
    }

    /// The largest document (body and attachment bytes) `attempt` reads: copying it must stay a short,
    /// bounded piece of an I/O thread's time.
    static let attemptMaxSize = 64 * 1024

    /// `{"_id":…,"_rev":…` and the stored body, with the revision as ETag.
    private static func render(id: String, _ winner: StoredWinner) -> HTTPResponse {
        var out: [UInt8] = []
        out.reserveCapacity(winner.body.count + id.utf8.count + winner.rev.count + 24 + (winner.attachments?.count ?? 0))
        DocumentJSON.append(to: &out, id: id, rev: winner.rev, body: winner.body, deleted: winner.deleted,
                            attachments: winner.attachments)
        out.append(UInt8(ascii: "\n"))
        // `"{rev}"` written in one piece.
        let etag = String(unsafeUninitializedCapacity: winner.rev.count + 2) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(from: winner.rev)
            buffer[winner.rev.count + 1] = UInt8(ascii: "\"")
            return winner.rev.count + 2
        }
        return CouchResponse.json(.ok, bytes: out, headers: [("ETag", etag)])
    }

    /// Reads with a revision or metadata: the tree and the needed body in one snapshot.
    private static func detailed(_ call: CouchCall, database: String, id: String, options: ReadOptions) throws -> HTTPResponse {
        let (doc, revision) = try call.store.read { reader -> (StoredDocument, StoredRevision?) in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            guard let doc = try reader.document(databaseID: db.id, id: id) else { throw CouchError.missing }
            // `latest=true` ignores `rev` and answers the winner (CouchDB 3.3.3).
            guard let rev = options.rev, !options.latest else {
                // Inline data needs the winner's attachment list (the document row keeps stubs as text only).
                guard options.attachmentData || options.attEncodingInfo, doc.winnerAttachments != nil, let winner = doc.tree.winner else { return (doc, nil) }
                return (doc, try reader.revision(documentRowID: doc.rowID, rev: winner.rev))
            }
            guard let node = doc.tree.node(rev), node.hasBody,
                  let stored = try reader.revision(documentRowID: doc.rowID, rev: rev) else { throw CouchError.missing }
            return (doc, stored)
        }
        let tree = doc.tree
        guard let winner = tree.winner else { throw CouchError.missing }
        let node: RevNode
        let body: [UInt8]
        let stubs: [UInt8]?
        if let revision, let found = tree.node(revision.rev) {
            if options.rev == nil || options.latest, winner.deleted && !options.deleted { throw CouchError.deleted }
            node = found
            body = revision.body
            if let answer = try multipartAnswer(call, id: id, revision: revision, node: node, tree: tree, options: options) {
                return answer
            }
            stubs = try attachmentsText(call, revision, node: node, tree: tree, options: options)
        } else {
            if winner.deleted && !options.deleted { throw CouchError.deleted }
            node = winner
            body = doc.winnerBody
            stubs = doc.winnerAttachments
        }
        let bytes = DocumentJSON.render(id: id, rev: node.rev.description, body: body, deleted: node.deleted,
                                        metadata: options.metadata(for: node, in: tree), attachments: stubs)
        return CouchResponse.json(.ok, bytes: bytes, headers: options.sendsETag ? [("ETag", "\"\(node.rev)\"")] : [])
    }

    /// The `_attachments` text of `revision`: stubs, or with `attachments=true`/`atts_since` inline base64 data for
    /// the attachments newer than the `atts_since` ancestor (§3.5.1, §5.6). Nil when it has none.
    private static func attachmentsText(_ call: CouchCall, _ revision: StoredRevision, node: RevNode, tree: RevTree,
                                        options: ReadOptions) throws -> [UInt8]? {
        let info = options.attEncodingInfo
        guard options.attachmentData, !revision.attachments.isEmpty else {
            return AttachmentJSON.stubsText(revision.attachments, encodingInfo: info)
        }
        let since = AttachmentData.sinceGeneration(tree, rev: node.rev, attsSince: options.attsSince)
        guard AttachmentData.needsData(revision.attachments, since: since) else {
            return AttachmentJSON.stubsText(revision.attachments, encodingInfo: info)
        }
        return try AttachmentData.text(revision.attachments, since: since, blobs: call.context.blobs,
                                       limit: call.config.maxAttachmentSize, encodingInfo: info)
    }

    /// `attachments=true` (or `atts_since`) with attachment data to send to a request that accepts
    /// multipart/related (§2.5, §5.11.3): the JSON part, then one part per attachment with data. Nil when the
    /// answer is JSON.
    private static func multipartAnswer(_ call: CouchCall, id: String, revision: StoredRevision, node: RevNode, tree: RevTree,
                                        options: ReadOptions) throws -> HTTPResponse? {
        guard options.attachmentData, !revision.attachments.isEmpty,
              AcceptHeader.accepts(call.request.headers["Accept"], "multipart/related") else { return nil }
        let since = AttachmentData.sinceGeneration(tree, rev: node.rev, attsSince: options.attsSince)
        guard let split = MultipartRelated.split(revision.attachments, since: since) else { return nil }
        var document: [UInt8] = []
        DocumentJSON.appendParts(to: &document, id: id, rev: node.rev.description, body: revision.body, deleted: node.deleted,
                                 metadata: options.metadata(for: node, in: tree), attachments: split.json)
        let related = MultipartRelated()
        let body = try MultipartRelated.body(boundary: related.boundary, document: document, attachments: split.withData,
                                             blobs: call.context.blobs, limit: call.config.maxAttachmentSize)
        var headers: HTTPHeaders = ["Content-Type": related.contentType]
        if options.sendsETag { headers.add("ETag", "\"\(node.rev)\"") }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(body))
    }
}

extension ReadOptions {
    /// Plain except for a `rev` that `latest=true` makes irrelevant.
    var isPlainApartFromRev: Bool {
        !revs && !revsInfo && !conflicts && !deletedConflicts && !localSeq && openRevs == nil
    }
}
