import Core
import HTTP

/// `GET /{db}/{docid}?open_revs=…` (spec §3.3.2): several revisions at once, as JSON or multipart/mixed.
enum OpenRevsRead {
    /// One entry of the answer.
    private enum Entry {
        case revision(RevNode, StoredRevision)
        case missing(RevID)
    }

    static func handle(_ call: CouchCall, database: String, id: String, _ openRevs: ReadOptions.OpenRevs,
                       _ options: ReadOptions) throws -> HTTPResponse {
        let (tree, entries) = try call.store.read { reader -> (RevTree, [Entry]) in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            let doc = try reader.document(databaseID: db.id, id: id)
            let tree = doc?.tree ?? RevTree()
            var entries: [Entry] = []
            func stored(_ node: RevNode) throws -> Entry {
                guard let doc, node.hasBody, let revision = try reader.revision(documentRowID: doc.rowID, rev: node.rev) else {
                    return .missing(node.rev)
                }
                return .revision(node, revision)
            }
            switch openRevs {
            case .all:
                // Decision §3.3.2: an unknown document is 404 for `all`; leaves ascending.
                guard doc != nil else { throw CouchError.missing }
                entries = try tree.leaves.map(stored)
            case .list(let revs):
                var seen = Set<RevID>()
                for rev in revs {
                    if options.latest {
                        let leaves = tree.leaves(descendingFrom: rev)
                        if leaves.isEmpty { entries.append(.missing(rev)) }
                        // Each leaf once, however many requested revisions lead to it.
                        for leaf in leaves where seen.insert(leaf.rev).inserted { entries.append(try stored(leaf)) }
                    } else if let node = tree.node(rev) {
                        entries.append(try stored(node))
                    } else {
                        entries.append(.missing(rev))
                    }
                }
            }
            return (tree, entries)
        }
        if AcceptHeader.accepts(call.request.headers["Accept"], "multipart/mixed") {
            var multipart = MultipartMixed()
            for entry in entries {
                switch entry {
                case .missing(let rev): multipart.appendMissing(rev.description)
                case .revision(let node, let revision):
                    // Decision §3.3.2: multipart answers carry the data of every attachment newer than `atts_since`,
                    // with or without `attachments=true`.
                    let since = AttachmentData.sinceGeneration(tree, rev: node.rev, attsSince: options.attsSince)
                    guard let split = MultipartRelated.split(revision.attachments, since: since) else {
                        multipart.appendDocument(render(id: id, node: node, revision: revision, tree: tree, options: options))
                        continue
                    }
                    let related = MultipartRelated()
                    let document = render(id: id, node: node, revision: revision, tree: tree, options: options,
                                          attachments: split.json)
                    multipart.appendRelated(contentType: related.contentType, try MultipartRelated.body(
                        boundary: related.boundary, document: document, attachments: split.withData,
                        blobs: call.context.blobs, limit: call.config.maxAttachmentSize))
                }
            }
            return HTTPResponse(status: .ok, headers: ["Content-Type": multipart.contentType], body: .bytes(multipart.finished()))
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            switch entry {
            case .missing(let rev):
                out.append(contentsOf: JSON.object(["missing": rev.json]).serializedBytes())
            case .revision(let node, let revision):
                var attachments: [UInt8]?
                if options.attachmentData, !revision.attachments.isEmpty {
                    let since = AttachmentData.sinceGeneration(tree, rev: node.rev, attsSince: options.attsSince)
                    attachments = try AttachmentData.text(revision.attachments, since: since, blobs: call.context.blobs,
                                                          limit: call.config.maxAttachmentSize,
                                                          encodingInfo: options.attEncodingInfo)
                }
                out.append(contentsOf: Array("{\"ok\":".utf8))
                out.append(contentsOf: render(id: id, node: node, revision: revision, tree: tree, options: options,
                                              attachments: attachments))
                out.append(UInt8(ascii: "}"))
            }
        }
        out.append(contentsOf: Array("]\n".utf8))
        return CouchResponse.json(.ok, bytes: out)
    }

    /// One revision as JSON; `attachments` replaces the stubs when the read carries data.
    private static func render(id: String, node: RevNode, revision: StoredRevision, tree: RevTree,
                               options: ReadOptions, attachments: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        DocumentJSON.appendParts(to: &out, id: id, rev: node.rev.description, body: revision.body,
                                 deleted: revision.deleted, metadata: options.metadata(for: node, in: tree),
                                 attachments: attachments ?? AttachmentJSON.stubsText(revision.attachments,
                                                                                      encodingInfo: options.attEncodingInfo))
        return out
    }
}
