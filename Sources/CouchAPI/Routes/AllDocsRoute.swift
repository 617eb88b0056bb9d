import Core
import HTTP

/// `GET|HEAD|POST /{db}/_all_docs`, `_design_docs` and `_local_docs` (spec §3.6): an id index walked in
/// byte order, or looked up by `keys`, read in one snapshot.
enum AllDocsRoute {
    /// What the snapshot yields.
    private struct Listing {
        var totalRows: Int64?
        var offset: Int64?
        var updateSeq: Int64
        var rows: [UInt8]
    }

    static func handle(_ call: CouchCall, database: String, index: DocumentIndex) throws -> HTTPResponse {
        let options = try DocumentWriteRoute.databaseFirst(call, database) { () throws -> AllDocsOptions in
            var body: JSONObject?
            if call.method == .post {
                try RequestBodies.requireJSON(call.request)
                guard case .object(let object) = try RequestBodies.json(call.request, limit: call.config.jsonRequestLimit) else {
                    throw CouchError.requestBodyNotObject
                }
                body = object
            }
            return try AllDocsOptions(query: call.query, body: body)
        }
        let listing = try call.store.read { reader -> Listing in
            guard let db = try reader.database(named: database) else { throw CouchError.databaseMissing }
            var documents = Documents(reader: reader, db: db, options: options,
                                      attachments: ListedAttachments(data: options.attachments,
                                                                     encodingInfo: options.attEncodingInfo,
                                                                     blobs: call.context.blobs,
                                                                     budget: call.config.maxAttachmentSize))
            if let keys = options.keys {
                return Listing(totalRows: try total(reader, db, index), offset: nil, updateSeq: db.updateSeq,
                               rows: try keyedRows(index, keys, &documents))
            }
            return try range(index, &documents)
        }
        var out: [UInt8] = []
        out.reserveCapacity(listing.rows.count + 80)
        out.append(contentsOf: "{\"total_rows\":")
        out.append(contentsOf: Array((listing.totalRows.map(String.init) ?? "null").utf8))
        out.append(contentsOf: ",\"offset\":")
        out.append(contentsOf: Array((listing.offset.map(String.init) ?? "null").utf8))
        // CouchDB writes `update_seq` with the other metadata, before the rows.
        if options.updateSeq {
            out.append(contentsOf: ",\"update_seq\":")
            out.append(contentsOf: Array(String(listing.updateSeq).utf8))
        }
        out.append(contentsOf: ",\"rows\":[")
        out.append(contentsOf: listing.rows)
        out.append(contentsOf: "]}\n")
        return CouchResponse.json(.ok, bytes: out)
    }

    /// `total_rows`: the index's size; null for `_local_docs` (CouchDB 3.x).
    private static func total(_ reader: any CouchReader, _ db: DatabaseRecord, _ index: DocumentIndex) throws -> Int64? {
        switch index {
        case .all: return db.docCount
        case .design: return try reader.documentCount(databaseID: db.id, index: .design, range: KeyRange())
        case .local: return nil
        }
    }

    /// What rows are rendered with: the snapshot, the options, and the attachment data used so far.
    private struct Documents {
        let reader: any CouchReader
        let db: DatabaseRecord
        let options: AllDocsOptions
        var attachments: ListedAttachments
    }

    /// A range walk: `offset` counts the entries before the range's start in iteration order plus `skip`.
    private static func range(_ index: DocumentIndex, _ documents: inout Documents) throws -> Listing {
        let (reader, db, options) = (documents.reader, documents.db, documents.options)
        let totalRows = try total(reader, db, index)
        var offset: Int64?
        if let totalRows {
            let before = try options.before.map { try reader.documentCount(databaseID: db.id, index: index, range: $0) } ?? 0
            let (sum, overflow) = before.addingReportingOverflow(Int64(options.skip))
            offset = overflow ? totalRows : min(sum, totalRows)
        }
        var rows: [UInt8] = []
        if let range = options.range {
            var query = DocumentListQuery(index: index)
            query.range = range
            query.descending = options.descending
            query.skip = options.skip
            query.limit = options.limit
            query.includeDocuments = options.includeDocs
            for (position, row) in try reader.documentList(databaseID: db.id, query).enumerated() {
                if position > 0 { rows.append(UInt8(ascii: ",")) }
                try appendRow(row, to: &rows, &documents)
            }
        }
        return Listing(totalRows: totalRows, offset: offset, updateSeq: db.updateSeq, rows: rows)
    }

    /// `keys`: one row per requested key in request order (reversed with `descending`), duplicates kept, then
    /// `skip` and `limit`. Only the keys that survive those are looked up.
    private static func keyedRows(_ index: DocumentIndex, _ keys: [JSON], _ documents: inout Documents) throws -> [UInt8] {
        let (reader, db, options) = (documents.reader, documents.db, documents.options)
        let ordered = options.descending ? Array(keys.reversed()) : keys
        var window = ordered.dropFirst(options.skip)
        if let limit = options.limit { window = window.prefix(limit) }
        var rows: [UInt8] = []
        for (position, key) in window.enumerated() {
            if position > 0 { rows.append(UInt8(ascii: ",")) }
            guard case .string(let id) = key, let row = try lookup(reader, db, index, id, options) else {
                rows.append(contentsOf: "{\"key\":")
                key.appendSerialized(to: &rows)
                rows.append(contentsOf: ",\"error\":\"not_found\"}")
                continue
            }
            switch row {
            case .live(let listed): try appendRow(listed, to: &rows, &documents)
            case .deleted(let rev):
                // A document whose winner is a tombstone: its revision, `deleted`, and `doc: null`.
                rows.append(contentsOf: "{\"id\":")
                key.appendSerialized(to: &rows)
                rows.append(contentsOf: ",\"key\":")
                key.appendSerialized(to: &rows)
                rows.append(contentsOf: ",\"value\":{\"rev\":")
                rev.json.appendSerialized(to: &rows)
                rows.append(contentsOf: ",\"deleted\":true}")
                if options.includeDocs { rows.append(contentsOf: ",\"doc\":null") }
                rows.append(UInt8(ascii: "}"))
            }
        }
        return rows
    }

    private enum KeyedRow {
        case live(DocumentListRow)
        case deleted(RevID)
    }

    /// The entry of `id` in `index`; nil when the index has none.
    private static func lookup(_ reader: any CouchReader, _ db: DatabaseRecord, _ index: DocumentIndex, _ id: String,
                               _ options: AllDocsOptions) throws -> KeyedRow? {
        switch index {
        case .local:
            guard DocumentID.isLocal(id), let local = try reader.localDocument(databaseID: db.id, id: id) else { return nil }
            return .live(DocumentListRow(id: id, rev: LocalRevision.text(local.rev), body: local.body, attachments: nil,
                                         tree: nil))
        case .all, .design:
            if index == .design, !DocumentID.isDesign(id) { return nil }
            if DocumentID.isLocal(id) { return nil }
            guard let doc = try reader.document(databaseID: db.id, id: id), let winner = doc.tree.winner else { return nil }
            if winner.deleted { return .deleted(winner.rev) }
            return .live(DocumentListRow(id: id, rev: winner.rev.description, body: doc.winnerBody,
                                         attachments: doc.winnerAttachments, tree: doc.tree))
        }
    }

    /// `{"id":…,"key":…,"value":{"rev":…}}`, with `doc` (the winner as §3.3.1 renders it) for `include_docs`:
    /// stubs, or with `attachments=true` inline data (decoded from gzip), and `att_encoding_info` as a document
    /// read shows it.
    private static func appendRow(_ row: DocumentListRow, to out: inout [UInt8], _ documents: inout Documents) throws {
        let options = documents.options
        let id = JSON.string(row.id)
        out.append(contentsOf: "{\"id\":")
        id.appendSerialized(to: &out)
        out.append(contentsOf: ",\"key\":")
        id.appendSerialized(to: &out)
        out.append(contentsOf: ",\"value\":{\"rev\":")
        JSON.string(row.rev).appendSerialized(to: &out)
        out.append(UInt8(ascii: "}"))
        if options.includeDocs, let body = row.body {
            var attachments = row.attachments
            if attachments != nil, documents.attachments.needsRevision {
                let stored = try ListedAttachments.winner(documents.reader, databaseID: documents.db.id, id: row.id)
                attachments = try documents.attachments.text(stored)
            }
            var metadata: [(String, JSON)] = []
            if options.conflicts, let conflicts = row.tree?.conflicts, !conflicts.isEmpty {
                metadata.append(("_conflicts", .array(conflicts.map(\.json))))
            }
            out.append(contentsOf: ",\"doc\":")
            DocumentJSON.appendParts(to: &out, id: row.id, rev: row.rev, body: body, deleted: false, metadata: metadata,
                                     attachments: attachments)
        }
        out.append(UInt8(ascii: "}"))
    }
}
