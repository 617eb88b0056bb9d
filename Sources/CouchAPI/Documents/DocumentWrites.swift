import Core
import HTTP

/// Turning a JSON document body into an edit (spec §3.3.3, §4.6, §5.3, §5.4).
enum DocumentWrites {
    /// The edit for `json` written as document `id`. `queryRev` is `?rev=`, `headerRev` the `If-Match`
    /// revision; `newEdits` false makes it a replicated write. Validation happens here, before any storage
    /// is touched (nothing is stored on error). `follows`: the attachments of a multipart/related body,
    /// already received and published.
    static func edit(_ call: CouchCall, id: String, json: JSON, queryRev: RevID?, headerRev: RevID? = nil,
                     newEdits: Bool, follows: [String: StoredAttachment]? = nil) throws -> DocumentEdit {
        let input = try DocumentInput(json, maxDocIDLength: call.config.maxDocIdLength)
        return try edit(call, id: id, input: input, queryRev: queryRev, headerRev: headerRev, newEdits: newEdits,
                        follows: follows)
    }

    /// The edit for a body already split into its members (a `_bulk_docs` element).
    static func edit(_ call: CouchCall, id: String, input original: DocumentInput, queryRev: RevID?,
                     headerRev: RevID? = nil, newEdits: Bool,
                     follows: [String: StoredAttachment]? = nil) throws -> DocumentEdit {
        var input = original
        if let queryRev, let bodyRev = input.rev, bodyRev != queryRev {
            throw CouchError.badRequest("Document rev from request body and query string have different values")
        }
        // `If-Match` stands in for a missing explicit revision and must agree with a present one (§3.3.3).
        let resolved = try DocumentETags.reconcile(explicit: input.namedRevision ?? queryRev, header: headerRev)
        let queryRev = input.namedRevision == nil ? resolved : queryRev
        if call.route.database == UsersDatabase.name, !DocumentID.isDesign(id), !DocumentID.isLocal(id) {
            try UserWrites.check(call, id: id, body: &input.body, deleted: input.deleted)
        }
        let bodyText = JSON.object(input.body).serializedBytes()
        // §4.9: the limit applies to the body's compact form without `_attachments`.
        guard bodyText.count <= call.config.maxDocumentSize else { throw CouchError.tooLarge }
        let mode: DocumentEdit.Mode
        if newEdits {
            mode = .interactive(requested: input.namedRevision ?? queryRev)
        } else if input.rev == nil, input.revisions == nil, let queryRev {
            mode = .replicated(try RevPath(single: queryRev))
        } else {
            mode = .replicated(try input.replicatedPath())
        }
        let attachments = try AttachmentsInput.parse(input.attachments, blobs: call.context.blobs,
                                                     maxAttachmentSize: call.config.maxAttachmentSize,
                                                     compression: call.config.attachmentCompression,
                                                     replicated: !newEdits, follows: follows)
        return try DocumentEdit(id: id, mode: mode, deleted: input.deleted, body: input.body, bodyText: bodyText,
                                attachments: attachments)
    }

    /// The edit for a body read without a tree (an interactive `PUT`, `SingleDocumentReader`): the same checks
    /// in the same order as `edit(_:id:input:…)` makes for such a body (no `_revisions`, no attachments, not
    /// in `_users`), so the same requests fail with the same errors.
    static func edit(_ call: CouchCall, id: String, document: SingleDocumentReader.Document, queryRev: RevID?,
                     headerRev: RevID?) throws -> DocumentEdit {
        if let queryRev, let bodyRev = document.rev, bodyRev != queryRev {
            throw CouchError.badRequest("Document rev from request body and query string have different values")
        }
        let requested = try DocumentETags.reconcile(explicit: document.rev ?? queryRev, header: headerRev)
        // §4.9: the limit applies to the body's compact form.
        guard document.body.count <= call.config.maxDocumentSize else { throw CouchError.tooLarge }
        return try DocumentEdit(id: id, requested: requested, deleted: document.deleted, bodyText: document.body,
                                bodyTerm: document.term)
    }

    /// Runs one edit as a parked write (the worker thread is released during the group commit) and answers
    /// `{"ok":true,"id":…,"rev":…}` with `ETag` and, when `location`, a `Location` header (the document's URL,
    /// or `locationURL` when given: an attachment `PUT` names the attachment).
    ///
    /// With `batch` (`?batch=ok`, Decision §5.10) the answer still waits for the durable commit, then is 202
    /// `{"ok":true,"id":…}` without `rev`; a per-document refusal (a conflict) is logged, not reported, which
    /// is CouchDB's contract for batch mode. Answering before the commit would acknowledge a write a crash
    /// could still lose.
    static func submit(_ call: CouchCall, database: String, edit: DocumentEdit, location: Bool,
                       locationURL: String? = nil, batch: Bool = false,
                       status: @escaping @Sendable (_ deleted: Bool) -> HTTPStatus) -> Reply {
        // A shutdown waits for the job: it still commits, and a 503 would invite a duplicate write.
        let parked = ParkedResponse(timeout: .seconds(120), awaitsCompletionOnShutdown: true) {
            call.finish(CouchResponse.error(CouchError(status: 503, error: "service_unavailable",
                                                       reason: "The database is busy; try again.")))
        }
        let id = edit.id
        let deleted = edit.deleted
        call.store.apply(database: database, edits: [edit]) { result in
            let response: HTTPResponse
            switch result {
            case .success(let outcomes) where batch:
                if case .failed(let error)? = outcomes.first {
                    call.context.logger.notice("couch batch write refused",
                                               metadata: ["db": "\(database)", "id": "\(id)", "error": "\(error.error)"])
                }
                var body = JSONObject()
                body["ok"] = .bool(true)
                body["id"] = .string(id)
                response = CouchResponse.json(.accepted, .object(body))
            case .success(let outcomes):
                switch outcomes.first {
                case .ok(let rev)?:
                    var headers = [("ETag", "\"\(rev)\"")]
                    if location {
                        headers.append(("Location", locationURL ?? call.documentURL(database: database, id: id)))
                    }
                    response = CouchResponse.json(status(deleted), bytes: writtenBytes(id: id, rev: rev), headers: headers)
                case .failed(let error)?:
                    response = CouchResponse.error(error)
                case nil:
                    response = CouchResponse.error(.internalError)
                }
            case .failure(let error):
                response = CouchHandler.response(for: error, request: call.request, mount: call.mount, context: call.context)
            }
            parked.complete(call.finish(response))
        }
        return .parked(parked)
    }

    /// `written(id:rev:)` rendered (with the trailing `\n`), written straight into bytes: every write's answer.
    static func writtenBytes(id: String, rev: RevID) -> [UInt8] {
        var id = id
        var revText = rev.description
        var out: [UInt8] = []
        out.reserveCapacity(40 + id.utf8.count + revText.utf8.count)
        out.append(contentsOf: #"{"ok":true,"id":"#.utf8)
        id.withUTF8 { JSON.appendQuoted(utf8: $0, to: &out) }
        out.append(contentsOf: #","rev":"#.utf8)
        revText.withUTF8 { JSON.appendQuoted(utf8: $0, to: &out) }
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// `{"ok":true,"id":…,"rev":…}`.
    static func written(id: String, rev: RevID) -> JSON {
        var body = JSONObject()
        body["ok"] = .bool(true)
        body["id"] = .string(id)
        body["rev"] = rev.json
        return .object(body)
    }
}
