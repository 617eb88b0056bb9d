import Core
import HTTP

/// `POST /{db}/_bulk_docs` (spec §3.7): many document writes in one writer job, so one transaction.
///
/// The whole request is validated before anything is stored: a malformed element fails the request
/// (400/413) and nothing is written. Then the elements are applied in order, each seeing the ones before it;
/// refusals (conflicts, missing stubs) are per-element results and do not stop the others.
enum BulkDocsRoute {
    /// One validated element.
    private struct Element {
        let id: String
        /// The element's `_rev` as sent (the 417 answer repeats it), nil without one.
        let rev: String?
        let edit: BulkEdit
    }

    static func handle(_ call: CouchCall, database: String) throws -> Reply {
        let (elements, newEdits, allOrNothing) = try DocumentWriteRoute.databaseFirst(call, database) {
            try parse(call)
        }
        if newEdits, allOrNothing {
            // CouchDB 3.x refuses the flag for interactive edits with 417 and one entry per element.
            let entries = elements.map { element -> JSON in
                var entry = JSONObject()
                entry["id"] = .string(element.id)
                entry["rev"] = .string(element.rev ?? "0-")
                entry["error"] = .string("not_implemented")
                entry["reason"] = .string("all_or_nothing is not supported")
                return .object(entry)
            }
            return .response(call.finish(CouchResponse.json(HTTPStatus(code: 417), .array(entries))))
        }
        let parked = ParkedResponse(timeout: .seconds(120), awaitsCompletionOnShutdown: true) {
            call.finish(CouchResponse.error(CouchError(status: 503, error: "service_unavailable",
                                                       reason: "The database is busy; try again.")))
        }
        let ids = elements.map(\.id)
        // Design documents and fail-closed validation (§2.8) refuse single elements; the others go on.
        let refusals = elements.map { $0.edit.isLocal ? nil : WritePermission.refusal(call, id: $0.id) }
        let allowed = zip(elements, refusals).compactMap { $1 == nil ? $0.edit : nil }
        // Only what the answer needs is kept for it: the edits themselves go to the store.
        let replicatedRevs = newEdits ? [] : elements.map(\.rev)
        call.store.apply(database: database, bulk: allowed) { result in
            let response: HTTPResponse
            switch result.map({ BulkDocsRoute.merge($0, refusals: refusals) }) {
            case .success(let outcomes) where outcomes.count == ids.count:
                response = CouchResponse.json(.created, bytes: render(ids: ids, outcomes: outcomes, newEdits: newEdits,
                                                                      replicatedRevs: replicatedRevs))
            case .success:
                response = CouchResponse.error(.internalError)
            case .failure(let error):
                response = CouchHandler.response(for: error, request: call.request, mount: call.mount, context: call.context)
            }
            parked.complete(call.finish(response))
        }
        return .parked(parked)
    }

    /// The outcomes of the applied elements with the refused ones put back in their places.
    static func merge(_ applied: [EditOutcome], refusals: [CouchError?]) -> [EditOutcome] {
        var next = applied.makeIterator()
        return refusals.compactMap { refusal in refusal.map(EditOutcome.failed) ?? next.next() }
    }

    /// Interactive: one entry per element, `{"ok":true,"id","rev"}` or `{"id","error","reason"}`.
    /// Replicated: only the failures, each with the element's revision (CouchDB's two result shapes).
    private static func render(ids: [String], outcomes: [EditOutcome], newEdits: Bool, replicatedRevs: [String?]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        var first = true
        for (index, outcome) in outcomes.enumerated() {
            var entry = JSONObject()
            switch outcome {
            case .ok(let rev):
                guard newEdits else { continue }
                entry["ok"] = .bool(true)
                entry["id"] = .string(ids[index])
                entry["rev"] = rev.json
            case .failed(let error):
                entry["id"] = .string(ids[index])
                if !newEdits, let rev = replicatedRevs[index] { entry["rev"] = .string(rev) }
                entry["error"] = .string(error.error)
                entry["reason"] = .string(error.reason)
            }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSON.object(entry).appendSerialized(to: &out)
        }
        out.append(contentsOf: "]\n")
        return out
    }

    /// Reads and validates the whole request (§3.7's order of checks).
    private static func parse(_ call: CouchCall) throws -> ([Element], newEdits: Bool, allOrNothing: Bool) {
        try RequestBodies.requireJSON(call.request)
        let bytes = try RequestBodies.read(call.request, limit: call.config.jsonRequestLimit)
        // `all_or_nothing` only matters to interactive edits.
        if let elements = replicatedElements(call, bytes) { return (elements, false, false) }
        guard case .object(let body) = try CouchJSON.parseRequest(bytes) else {
            throw CouchError.requestBodyNotObject
        }
        guard let docsValue = body["docs"] else { throw CouchError.badRequest("POST body must include `docs` parameter.") }
        guard case .array(let docs) = docsValue else { throw CouchError.badRequest("`docs` parameter must be an array.") }
        var newEdits = true
        if let value = body["new_edits"] {
            guard case .bool(let flag) = value else { throw CouchError.badRequest("`new_edits` parameter must be a boolean.") }
            newEdits = flag
        }
        let allOrNothing = body["all_or_nothing"]?.boolValue ?? false
        // §4.9: more elements than `couch.maxBulkDocs` is 413 for the whole request.
        guard docs.count <= call.config.maxBulkDocs else { throw CouchError.tooLarge }
        // Inline attachment data is written to the blob store as its element is read; when a later element
        // then fails the request, those blobs stay unreferenced and garbage collection removes them.
        var elements: [Element] = []
        elements.reserveCapacity(docs.count)
        for doc in docs {
            guard case .object = doc else { throw CouchError.documentNotObject }
            let input = try DocumentInput(doc, maxDocIDLength: call.config.maxDocIdLength)
            let id = input.id ?? call.context.ids.next()
            let rev = doc["_rev"]?.stringValue
            if DocumentID.isLocal(id) {
                elements.append(Element(id: id, rev: rev, edit: try localEdit(call, id: id, json: doc)))
                continue
            }
            let edit = try DocumentWrites.edit(call, id: id, input: input, queryRev: nil, newEdits: newEdits)
            // A replicated failure names the revision the element carried: the head of its path.
            let named = newEdits || input.revisions == nil ? rev : edit.revisionText
            elements.append(Element(id: id, rev: named, edit: .document(edit)))
        }
        return (elements, newEdits, allOrNothing)
    }

    /// The elements of a replicated body read without a JSON tree (`ReplicatedBulkReader`), each made into
    /// the edit `DocumentWrites.edit` makes of it. Nil when that reader does not take the body or an element
    /// fails a check (its size, its attachments): `parse` then reads the body the general way, which answers
    /// with the exact error. Inline attachments written before such a failure stay unreferenced, as when the
    /// general way refuses a later element, and garbage collection removes them.
    private static func replicatedElements(_ call: CouchCall, _ bytes: [UInt8]) -> [Element]? {
        // `_users` documents are checked as trees (`UserWrites`).
        guard call.route.database != UsersDatabase.name, ReplicatedBulkReader.mayApply(bytes),
              let read = ReplicatedBulkReader.read(bytes, maxElements: call.config.maxBulkDocs,
                                                   maxDocIDLength: call.config.maxDocIdLength) else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(read.count)
        for element in read {
            // §4.9: the limit applies to the body's compact form, which is what the reader kept.
            guard element.body.count <= call.config.maxDocumentSize else { return nil }
            do {
                let path: RevPath
                if let revisions = element.revisions {
                    path = revisions
                } else if let rev = element.rev {
                    path = try RevPath(single: RevID(parsing: rev))
                } else {
                    return nil
                }
                let attachments = try AttachmentsInput.parse(element.attachments, blobs: call.context.blobs,
                                                             maxAttachmentSize: call.config.maxAttachmentSize,
                                                             compression: call.config.attachmentCompression,
                                                             replicated: true)
                // A replicated edit keeps the revision ids it carries: its body is never hashed, so no tree.
                let edit = try DocumentEdit(id: element.id, mode: .replicated(path), deleted: element.deleted,
                                            body: JSONObject(), bodyText: element.body, attachments: attachments)
                let named = element.revisions == nil ? element.rev : edit.revisionText
                elements.append(Element(id: element.id, rev: named, edit: .document(edit)))
            } catch {
                return nil
            }
        }
        return elements
    }

    /// A `_local/` element: written as `PUT /{db}/_local/…` would write it (§3.4), whatever `new_edits` says.
    private static func localEdit(_ call: CouchCall, id: String, json: JSON) throws -> BulkEdit {
        let input = try LocalDocumentInput(json, maxDocIDLength: call.config.maxDocIdLength)
        if input.deleted { return .local(id: id, rev: 0, body: nil) }
        let body = JSON.object(input.body).serializedBytes()
        guard body.count <= call.config.maxDocumentSize else { throw CouchError.tooLarge }
        return .local(id: id, rev: LocalRevision.next(after: input.revNumber), body: body)
    }
}
