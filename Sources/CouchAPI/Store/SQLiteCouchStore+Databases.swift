import Core
import Storage

extension SQLiteCouchStore {
    public func createDatabase(name: String, createdMicros: Int64) throws -> Bool {
        let epoch = accessEpoch
        return try storage.writeAndWait { ctx -> Bool in
            // The unique name decides a race between two creators: one inserts, the other sees 412.
            let created = try ctx.db.run("INSERT OR IGNORE INTO couch_databases (name, created_us) VALUES (?, ?)",
                                         [.text(name), .integer(createdMicros)]) == 1
            if created { ctx.afterCommit { epoch.advance() } }
            return created
        }
    }

    public func deleteDatabase(name: String) throws -> Bool {
        let blobs = self.blobs
        let epoch = accessEpoch
        return try storage.writeAndWait { ctx -> Bool in
            guard let id = try Self.databaseID(name, ctx.db) else { return false }
            ctx.afterCommit { epoch.advance() }
            // Every attachment row holds one reference to its blob.
            var hashes: [String] = []
            try ctx.db.forEachRow("""
                SELECT a.blob_hash FROM couch_docs d
                JOIN couch_revs r ON r.doc_rowid = d.doc_rowid
                JOIN couch_atts a ON a.rev_rowid = r.rev_rowid
                WHERE d.db_id = ? AND r.att_count > 0
                """, [.integer(id)]) { row in
                if let hash = row.string(0) { hashes.append(hash) }
                return true
            }
            for hash in hashes { try blobs.release(hash, in: ctx) }
            try ctx.db.run("""
                DELETE FROM couch_atts WHERE rev_rowid IN (
                    SELECT r.rev_rowid FROM couch_docs d JOIN couch_revs r ON r.doc_rowid = d.doc_rowid
                    WHERE d.db_id = ? AND r.att_count > 0)
                """, [.integer(id)])
            try ctx.db.run("DELETE FROM couch_revs WHERE doc_rowid IN (SELECT doc_rowid FROM couch_docs WHERE db_id = ?)",
                           [.integer(id)])
            try ctx.db.run("DELETE FROM couch_docs WHERE db_id = ?", [.integer(id)])
            try ctx.db.run("DELETE FROM couch_local_docs WHERE db_id = ?", [.integer(id)])
            try ctx.db.run("DELETE FROM couch_databases WHERE db_id = ?", [.integer(id)])
            // Int64.max passes every cursor, so every feed parked on the database wakes and sees it gone.
            ctx.publish(ChangeEvent(topic: CouchTopics.database(id), sequence: Int64.max, detail: CouchTopics.deletedDetail))
            return true
        }
    }

    public func setRevsLimit(database: String, limit: Int) throws -> Bool {
        try storage.writeAndWait { ctx -> Bool in
            try ctx.db.run("UPDATE couch_databases SET revs_limit = ? WHERE name = ?",
                           [.integer(Int64(limit)), .text(database)]) == 1
        }
    }

    /// The internal id of database `name` (inside a job).
    static func databaseID(_ name: String, _ db: Database) throws -> Int64? {
        try db.queryOne("SELECT db_id FROM couch_databases WHERE name = ?", [.text(name)])?[0].int64
    }
}
