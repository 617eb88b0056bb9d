import Core
import HTTP

/// `POST /{db}/_bulk_get` (spec §3.8): many `open_revs`-style reads in one snapshot, always answered as JSON
/// (Decision §2.5) with exactly one top-level member, `results`, one result per request entry in order.
enum BulkGetRoute {
    /// Query parameters that only make sense per entry (CouchDB refuses them in the query string).
    private static let refusedParameters = ["open_revs", "new_edits", "w", "rev", "atts_since"]

    /// One request entry, validated as far as it can be without the document.
    private enum Entry {
        /// A well-formed entry: the id, the requested revision (nil: every leaf), `atts_since`.
        case read(id: String, rev: RevID?, attsSince: [RevID]?)
        /// An entry answered with an error without reading anything: `id` and `rev` as the result names them.
        case invalid(id: JSON, rev: JSON, CouchError)
    }

    static func handle(_ call: CouchCall, database: String) throws -> HTTPResponse {
        let (entries, options) = try DocumentWriteRoute.databaseFirst(call, database) { () throws -> ([Entry], ReadOptions) in
            for name in refusedParameters where call.query.value(name) != nil {
                throw CouchError.badRequest("\"\(name)\" query parameter is not acceptable")
            }
            try RequestBodies.requireJSON(call.request)
            guard case .object(let body) = try RequestBodies.json(call.request, limit: call.config.jsonRequestLimit) else {
                throw CouchError.requestBodyNotObject
            }
            guard case .array(let docs)? = body["docs"] else { throw CouchError.badRequest("Missing JSON list of 'docs'.") }
            // §4.9: more entries than `couch.maxBulkGet` is 413 for the whole request.
            guard docs.count <= call.config.maxBulkGet else { throw CouchError.tooLarge }
            return (docs.map { entry(from: $0, maxDocIDLength: call.config.maxDocIdLength) }, try ReadOptions(call.query))
        }
        var out: [UInt8] = []
        var attachments = ListedAttachments(data: options.attachmentData, encodingInfo: options.attEncodingInfo,
                                            blobs: call.context.blobs, budget: call.config.maxAttachmentSize)
        try call.store.read { reader in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            out.append(contentsOf: "{\"results\":[")
            for (index, entry) in entries.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try appendResult(entry, reader: reader, databaseID: db.id, options: options, attachments: &attachments,
                                 to: &out)
            }
            out.append(contentsOf: "]}\n")
        }
        return CouchResponse.json(.ok, bytes: out)
    }

    /// Validates one entry (§3.8's per-entry errors, which never fail the whole request).
    private static func entry(from value: JSON, maxDocIDLength: Int) -> Entry {
        guard case .object(let object) = value else {
            return .invalid(id: .null, rev: .null, .badRequest("document must be a JSON object"))
        }
        guard let idValue = object["id"] else { return .invalid(id: .null, rev: .null, .badRequest("document id missed")) }
        let id: String
        do {
            id = try DocumentID.validate(json: idValue, maxLength: maxDocIDLength)
        } catch {
            return .invalid(id: idValue, rev: .null, error)
        }
        var rev: RevID?
        if let revValue = object["rev"] {
            do {
                rev = try RevID(json: revValue)
            } catch {
                return .invalid(id: idValue, rev: revValue, error)
            }
        }
        var attsSince: [RevID]?
        if let since = object["atts_since"] {
            do {
                attsSince = try RevID.list(json: since)
            } catch {
                return .invalid(id: idValue, rev: object["rev"] ?? .null, .badRequest("att_since value must be array of revs."))
            }
        }
        return .read(id: id, rev: rev, attsSince: attsSince)
    }

    /// `{"id":…,"docs":[{"ok":{…}} | {"error":{…}}, …]}` for one entry.
    private static func appendResult(_ entry: Entry, reader: any CouchReader, databaseID: Int64, options: ReadOptions,
                                     attachments listed: inout ListedAttachments, to out: inout [UInt8]) throws {
        switch entry {
        case .invalid(let id, let rev, let error):
            out.append(contentsOf: "{\"id\":")
            id.appendSerialized(to: &out)
            out.append(contentsOf: ",\"docs\":[")
            appendError(id: id, rev: rev, error, to: &out)
            out.append(contentsOf: "]}")
        case .read(let id, let rev, let attsSince):
            let idJSON = JSON.string(id)
            out.append(contentsOf: "{\"id\":")
            idJSON.appendSerialized(to: &out)
            out.append(contentsOf: ",\"docs\":[")
            let doc = DocumentID.isLocal(id) ? nil : try reader.document(databaseID: databaseID, id: id)
            let tree = doc?.tree ?? RevTree()
            // Which revisions the entry asks for: the one named (or, with `latest`, the leaves below it), or
            // every leaf (as `open_revs=all`).
            let nodes: [RevNode]
            if let rev {
                if options.latest {
                    nodes = tree.leaves(descendingFrom: rev)
                } else {
                    nodes = tree.node(rev).map { [$0] } ?? []
                }
            } else {
                nodes = tree.leaves
            }
            if nodes.isEmpty {
                appendError(id: idJSON, rev: rev.map(\.json) ?? .string("undefined"), .missing, to: &out)
            }
            // Stubs only (no inline data, no encoding info): the live winner is answered from the copy in the
            // document row, the same bytes its revision row holds, as a plain document read does; a second
            // statement per document was about a third of a `_bulk_get`'s instructions.
            let stubsOnly = !(options.attachmentData || attsSince != nil) && !listed.encodingInfo
            let winner = stubsOnly ? tree.winner : nil
            for (index, node) in nodes.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if let doc, let winner, node.rev == winner.rev, node.hasBody, !node.deleted {
                    out.append(contentsOf: "{\"ok\":")
                    DocumentJSON.appendParts(to: &out, id: id, rev: node.rev.description, body: doc.winnerBody,
                                             deleted: false, metadata: options.metadata(for: node, in: tree),
                                             attachments: doc.winnerAttachments)
                    out.append(UInt8(ascii: "}"))
                    continue
                }
                guard let doc, node.hasBody, let revision = try reader.revision(documentRowID: doc.rowID, rev: node.rev) else {
                    appendError(id: idJSON, rev: node.rev.json, .missing, to: &out)
                    continue
                }
                // `attachments=true`, or an entry's `atts_since` (which implies it): data for newer attachments;
                // `att_encoding_info=true` applies to both forms, as for a document read.
                listed.data = options.attachmentData || attsSince != nil
                let since = AttachmentData.sinceGeneration(tree, rev: node.rev, attsSince: attsSince)
                let attachments = try listed.text(revision.attachments, since: since)
                out.append(contentsOf: "{\"ok\":")
                DocumentJSON.appendParts(to: &out, id: id, rev: node.rev.description, body: revision.body,
                                         deleted: revision.deleted, metadata: options.metadata(for: node, in: tree),
                                         attachments: attachments)
                out.append(UInt8(ascii: "}"))
            }
            out.append(contentsOf: "]}")
        }
    }

    /// `{"error":{"id":…,"rev":…,"error":…,"reason":…}}`.
    private static func appendError(id: JSON, rev: JSON, _ error: CouchError, to out: inout [UInt8]) {
        var object = JSONObject()
        object["id"] = id
        object["rev"] = rev
        object["error"] = .string(error.error)
        object["reason"] = .string(error.reason)
        out.append(contentsOf: "{\"error\":")
        JSON.object(object).appendSerialized(to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
