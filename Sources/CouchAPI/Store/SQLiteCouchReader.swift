import Core
import Storage

/// `CouchReader` on one connection inside one read transaction (or a write job: the writer reads its own
/// uncommitted changes, which is what an edit that follows another in the same job must see).
struct SQLiteCouchReader: CouchReader {
    let db: Database

    static let databaseColumns = """
        SELECT db_id, name, created_us, update_seq, purge_seq, revs_limit, doc_count, doc_del_count,
               external_size, active_size
        FROM couch_databases
        """

    func database(named name: String) throws -> DatabaseRecord? {
        var record: DatabaseRecord?
        try db.forEachRow(Self.databaseColumns + " WHERE name = ?", [.text(name)]) { row in
            record = try Self.database(row)
            return false
        }
        return record
    }

    static func database(_ row: ColumnReader) throws -> DatabaseRecord {
        guard let id = row.int64(0), let name = row.string(1), let created = row.int64(2), let seq = row.int64(3),
              let purgeSeq = row.int64(4), let revsLimit = row.int64(5), let docCount = row.int64(6),
              let delCount = row.int64(7), let external = row.int64(8), let active = row.int64(9) else {
            throw CouchStoreError.corrupt("database row")
        }
        return DatabaseRecord(id: id, name: name, createdMicros: created, updateSeq: seq, purgeSeq: purgeSeq,
                              revsLimit: Int(clamping: revsLimit), docCount: docCount, docDelCount: delCount,
                              externalSize: external, activeSize: active)
    }

    func databaseNames(_ query: DatabaseListQuery) throws -> [String] {
        // Only fixed fragments are joined; every value is bound.
        var conditions: [String] = []
        var args: [SQLValue] = []
        let (low, high) = query.descending ? (query.endKey, query.startKey) : (query.startKey, query.endKey)
        let lowInclusive = query.descending ? query.inclusiveEnd : true
        let highInclusive = query.descending ? true : query.inclusiveEnd
        if let low {
            conditions.append(lowInclusive ? "name >= ?" : "name > ?")
            args.append(.text(low))
        }
        if let high {
            conditions.append(highInclusive ? "name <= ?" : "name < ?")
            args.append(.text(high))
        }
        var sql = "SELECT name FROM couch_databases"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += query.descending ? " ORDER BY name DESC" : " ORDER BY name"
        sql += " LIMIT ? OFFSET ?"
        args.append(.integer(query.limit.map { Int64($0) } ?? -1))
        args.append(.integer(Int64(max(0, query.skip))))
        var names: [String] = []
        try db.forEachRow(sql, args) { row in
            if let name = row.string(0) { names.append(name) }
            return true
        }
        return names
    }

    func document(databaseID: Int64, id: String) throws -> StoredDocument? {
        var found: StoredDocument?
        try db.forEachRow("""
            SELECT doc_rowid, seq, body, atts, tree FROM couch_docs WHERE db_id = ? AND doc_id = ?
            """, [.integer(databaseID), .text(id)]) { row in
            guard let rowID = row.int64(0), let seq = row.int64(1), let body = row.bytes(2),
                  let treeBytes = row.bytes(4) else { throw CouchStoreError.corrupt("document row") }
            let tree: RevTree
            do {
                tree = try RevTree(encoded: treeBytes)
            } catch {
                throw CouchStoreError.corrupt("revision tree of a document: \(error)")
            }
            found = StoredDocument(rowID: rowID, id: id, seq: seq, tree: tree, winnerBody: body,
                                   winnerAttachments: row.bytes(3))
            return false
        }
        return found
    }

    func revision(documentRowID: Int64, rev: RevID) throws -> StoredRevision? {
        var found: (rowID: Int64, deleted: Bool, body: [UInt8], attachments: Int64)?
        try db.forEachRow("""
            SELECT rev_rowid, deleted, body, att_count FROM couch_revs WHERE doc_rowid = ? AND rev = ?
            """, [.integer(documentRowID), .text(rev.description)]) { row in
            guard let rowID = row.int64(0), let body = row.bytes(2) else { throw CouchStoreError.corrupt("revision row") }
            found = (rowID, row.int64(1) != 0, body, row.int64(3) ?? 0)
            return false
        }
        guard let found else { return nil }
        let attachments = found.attachments > 0 ? try self.attachments(revisionRowID: found.rowID) : []
        return StoredRevision(rev: rev, deleted: found.deleted, body: found.body, attachments: attachments)
    }

    /// The attachments of a stored revision, in order.
    func attachments(revisionRowID: Int64) throws -> [StoredAttachment] {
        var list: [StoredAttachment] = []
        try db.forEachRow("""
            SELECT name, content_type, length, digest, revpos, encoding, encoded_length, blob_hash
            FROM couch_atts WHERE rev_rowid = ? ORDER BY position
            """, [.integer(revisionRowID)]) { row in
            guard let name = row.string(0), let type = row.string(1), let length = row.int64(2),
                  let digest = row.string(3), let revpos = row.int64(4), let hash = row.string(7) else {
                throw CouchStoreError.corrupt("attachment row")
            }
            list.append(StoredAttachment(name: name, contentType: type, length: length, digest: digest,
                                         revpos: Int(clamping: revpos), encoding: row.string(5),
                                         encodedLength: row.int64(6), blobHash: hash))
            return true
        }
        return list
    }

    func localDocument(databaseID: Int64, id: String) throws -> LocalDocument? {
        var found: LocalDocument?
        try db.forEachRow("SELECT rev, body FROM couch_local_docs WHERE db_id = ? AND doc_id = ?",
                          [.integer(databaseID), .text(id)]) { row in
            guard let rev = row.int64(0), let body = row.bytes(1) else { throw CouchStoreError.corrupt("local document row") }
            found = LocalDocument(rev: rev, body: body)
            return false
        }
        return found
    }
}
