import Core
import Storage

extension SQLiteCouchStore {
    public func writeLocal(database: String, id: String, rev: Int64, body: [UInt8]?,
                           completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        storage.write({ ctx -> Bool in
            guard let databaseID = try Self.databaseID(database, ctx.db) else { throw CouchError.databaseMissing }
            guard let body else {
                let deleted = try ctx.db.run("DELETE FROM couch_local_docs WHERE db_id = ? AND doc_id = ?",
                                             [.integer(databaseID), .text(id)])
                return deleted == 1
            }
            // No tree and no conflict check (§3.4): the write simply replaces what is there.
            try ctx.db.run("""
                INSERT INTO couch_local_docs (db_id, doc_id, rev, body) VALUES (?, ?, ?, ?)
                ON CONFLICT (db_id, doc_id) DO UPDATE SET rev = excluded.rev, body = excluded.body
                """, [.integer(databaseID), .text(id), .integer(rev), .text(String(decoding: body, as: UTF8.self))])
            return true
        }, completion: completion)
    }

    /// Documents visited per compaction job: short transactions keep readers and writers moving (§5.12).
    static let compactionChunk = 64

    public func compact(database: String) throws -> Bool {
        do {
            return try compactChunks(database)
        } catch let error as CouchError where error == .databaseMissing {
            return false
        }
    }

    private func compactChunks(_ database: String) throws -> Bool {
        var after: Int64 = 0
        let blobs = self.blobs
        while true {
            let start = after
            let next = try storage.writeAndWait { ctx -> Int64? in
                guard let row = try ctx.db.queryOne("SELECT db_id, revs_limit FROM couch_databases WHERE name = ?",
                                                    [.text(database)]),
                      let databaseID = row[0].int64, let limit = row[1].int64 else { throw CouchError.databaseMissing }
                var documents: [(rowID: Int64, tree: [UInt8])] = []
                try ctx.db.forEachRow("""
                    SELECT doc_rowid, tree FROM couch_docs WHERE db_id = ? AND doc_rowid > ? ORDER BY doc_rowid LIMIT ?
                    """, [.integer(databaseID), .integer(start), .integer(Int64(Self.compactionChunk))]) { doc in
                    if let rowID = doc.int64(0), let tree = doc.bytes(1) { documents.append((rowID, tree)) }
                    return true
                }
                var activeDelta: Int64 = 0
                for document in documents {
                    var tree: RevTree
                    do { tree = try RevTree(encoded: document.tree) } catch { throw CouchStoreError.corrupt("revision tree: \(error)") }
                    let dropped = tree.dropNonLeafBodies()
                    let stemmed = tree.stem(limit: Int(clamping: limit))
                    guard !dropped.isEmpty || !stemmed.isEmpty else { continue }
                    activeDelta -= try RevisionRows.remove(dropped + stemmed, documentRowID: document.rowID, ctx: ctx, blobs: blobs)
                    let encoded = tree.encoded()
                    activeDelta += Int64(encoded.count - document.tree.count)
                    // The sequence stays: compaction changes no revision a client can see as new (§5.12).
                    try ctx.db.run("UPDATE couch_docs SET tree = ? WHERE doc_rowid = ?",
                                   [.blob(encoded), .integer(document.rowID)])
                }
                if documents.count < Self.compactionChunk {
                    try ctx.db.run("""
                        UPDATE couch_databases SET compacted_seq = update_seq, active_size = active_size + ? WHERE db_id = ?
                        """, [.integer(activeDelta), .integer(databaseID)])
                    return nil
                }
                if activeDelta != 0 {
                    try ctx.db.run("UPDATE couch_databases SET active_size = active_size + ? WHERE db_id = ?",
                                   [.integer(activeDelta), .integer(databaseID)])
                }
                return documents.last?.rowID
            }
            guard let next else { return true }
            after = next
        }
    }
}
