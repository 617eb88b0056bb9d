import Core
import Storage

/// `_all_docs`, `_design_docs` and `_local_docs` (spec §3.6) over the `(db_id, doc_id)` indexes, whose TEXT
/// keys SQLite compares with memcmp: the byte order of the UTF-8 ids, which is the order the spec asks for.
extension SQLiteCouchReader {
    func documentList(databaseID: Int64, _ query: DocumentListQuery) throws -> [DocumentListRow] {
        let (whereClause, args) = Self.conditions(databaseID: databaseID, index: query.index, range: query.range)
        let local = query.index == .local
        let columns: String
        switch (local, query.includeDocuments) {
        case (true, false): columns = "doc_id, rev"
        case (true, true): columns = "doc_id, rev, body"
        case (false, false): columns = "doc_id, rev"
        case (false, true): columns = "doc_id, rev, body, atts, tree"
        }
        let sql = "SELECT \(columns) FROM \(local ? "couch_local_docs" : "couch_docs") WHERE \(whereClause)"
            + (query.descending ? " ORDER BY doc_id DESC" : " ORDER BY doc_id") + " LIMIT ? OFFSET ?"
        // LIMIT -1 is SQLite's "no limit".
        let bound = args + [.integer(query.limit.map { Int64($0) } ?? -1), .integer(Int64(max(0, query.skip)))]
        var rows: [DocumentListRow] = []
        try db.forEachRow(sql, bound) { row in
            guard let id = row.string(0) else { throw CouchStoreError.corrupt("listing row") }
            let rev: String
            if local {
                guard let n = row.int64(1) else { throw CouchStoreError.corrupt("local document row") }
                rev = LocalRevision.text(n)
            } else {
                guard let text = row.string(1) else { throw CouchStoreError.corrupt("document row") }
                rev = text
            }
            guard query.includeDocuments else {
                rows.append(DocumentListRow(id: id, rev: rev, body: nil, attachments: nil, tree: nil))
                return true
            }
            guard let body = row.bytes(2) else { throw CouchStoreError.corrupt("listing row body") }
            var tree: RevTree?
            if !local {
                guard let treeBytes = row.bytes(4) else { throw CouchStoreError.corrupt("document row") }
                do {
                    tree = try RevTree(encoded: treeBytes)
                } catch {
                    throw CouchStoreError.corrupt("revision tree of a document: \(error)")
                }
            }
            rows.append(DocumentListRow(id: id, rev: rev, body: body, attachments: local ? nil : row.bytes(3), tree: tree))
            return true
        }
        return rows
    }

    func documentCount(databaseID: Int64, index: DocumentIndex, range: KeyRange) throws -> Int64 {
        let (whereClause, args) = Self.conditions(databaseID: databaseID, index: index, range: range)
        let table = index == .local ? "couch_local_docs" : "couch_docs"
        return try db.queryOne("SELECT count(*) FROM \(table) WHERE \(whereClause)", args)?[0].int64 ?? 0
    }

    /// The WHERE clause of an index range. Only fixed fragments are joined; every value is bound.
    private static func conditions(databaseID: Int64, index: DocumentIndex, range: KeyRange) -> (String, [SQLValue]) {
        var conditions = ["db_id = ?"]
        var args: [SQLValue] = [.integer(databaseID)]
        switch index {
        case .all:
            conditions.append("deleted = 0")
        case .design:
            // `_design0` is the first id past every `_design/…` one ('0' follows '/' in ASCII).
            conditions.append("deleted = 0 AND doc_id >= ? AND doc_id < ?")
            args += [.text(DocumentID.designPrefix), .text("_design0")]
        case .local:
            break
        }
        if let low = range.low {
            conditions.append(low.inclusive ? "doc_id >= ?" : "doc_id > ?")
            args.append(.text(low.key))
        }
        if let high = range.high {
            conditions.append(high.inclusive ? "doc_id <= ?" : "doc_id < ?")
            args.append(.text(high.key))
        }
        return (conditions.joined(separator: " AND "), args)
    }
}
