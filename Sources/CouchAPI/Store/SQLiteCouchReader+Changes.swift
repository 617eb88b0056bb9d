import Core
import Storage

/// The changes index (§3.11, §7): the unique index `couch_docs_seq` on (db_id, seq) holds exactly one entry
/// per document, at its current sequence.
extension SQLiteCouchReader {
    func database(id: Int64) throws -> DatabaseRecord? {
        var record: DatabaseRecord?
        try db.forEachRow(Self.databaseColumns + " WHERE db_id = ?", [.integer(id)]) { row in
            record = try Self.database(row)
            return false
        }
        return record
    }

    func changes(_ read: ChangesRead) throws -> [ChangeRecord] {
        // Only fixed fragments are joined; every value is bound.
        var columns = "seq, doc_id, doc_rowid, rev, deleted"
        if read.includeTree { columns += ", tree" }
        if read.includeDocument { columns += ", body, atts" }
        var sql = "SELECT " + columns + " FROM couch_docs"
        var args: [SQLValue] = [.integer(read.databaseID)]
        switch read.selection {
        case .all:
            sql += " WHERE db_id = ?"
        case .documentIDs(let ids):
            // Each listed id is looked up by the id index and the few rows found are sorted: walking the
            // sequence index instead would visit every change of the database to find them.
            sql += " INDEXED BY couch_docs_id WHERE db_id = ? AND doc_id IN (SELECT value FROM json_each(?))"
            args.append(.text(JSON.array(ids.map { .string($0) }).serialized()))
        case .design:
            // Every id starting with `_design/`: '/' is 0x2F and '0' the byte after it.
            sql += " INDEXED BY couch_docs_id WHERE db_id = ? AND doc_id >= '_design/' AND doc_id < '_design0'"
        }
        sql += read.descending ? " AND seq < ? ORDER BY seq DESC LIMIT ?" : " AND seq > ? ORDER BY seq LIMIT ?"
        args.append(.integer(read.from))
        args.append(.integer(Int64(read.limit)))
        var rows: [ChangeRecord] = []
        try db.forEachRow(sql, args) { row in
            guard let seq = row.int64(0), let id = row.string(1), let rowID = row.int64(2), let rev = row.string(3),
                  let deleted = row.int64(4) else { throw CouchStoreError.corrupt("changes row") }
            var next = 5
            var tree: RevTree?
            if read.includeTree {
                guard let bytes = row.bytes(next) else { throw CouchStoreError.corrupt("changes row tree") }
                do { tree = try RevTree(encoded: bytes) } catch { throw CouchStoreError.corrupt("revision tree: \(error)") }
                next += 1
            }
            var body: [UInt8]?
            var attachments: [UInt8]?
            if read.includeDocument {
                guard let text = row.bytes(next) else { throw CouchStoreError.corrupt("changes row body") }
                body = text
                attachments = row.bytes(next + 1)
            }
            rows.append(ChangeRecord(seq: seq, id: id, rowID: rowID, rev: rev, deleted: deleted != 0, tree: tree,
                                     body: body, attachments: attachments))
            return true
        }
        return rows
    }

    func changeCount(databaseID: Int64, after: Int64?, before: Int64?) throws -> Int64 {
        var sql = "SELECT count(*) FROM couch_docs WHERE db_id = ?"
        var args: [SQLValue] = [.integer(databaseID)]
        if let after {
            sql += " AND seq > ?"
            args.append(.integer(after))
        }
        if let before {
            sql += " AND seq < ?"
            args.append(.integer(before))
        }
        return try db.queryOne(sql, args)?[0].int64 ?? 0
    }
}
