import Core
import Storage

extension SQLiteTransaction {
    // MARK: Files

    func file(_ name: String) throws -> FileRecord? {
        guard let row = try db.queryOne("SELECT name, blob_hash, size, content_type, metadata, created_at "
                                        + "FROM parse_files WHERE name = ?", [.text(name)]) else { return nil }
        var meta: JSONObject?
        if let m = row["metadata"].string { meta = try? JSONParser.parse(m, options: StoredJSON.options).objectValue }
        return FileRecord(name: row["name"].string ?? name, blobHash: row["blob_hash"].string ?? "",
                          size: Int(row["size"].int64 ?? 0), contentType: row["content_type"].string, metadata: meta,
                          createdAt: row["created_at"].string ?? "")
    }

    func insertFile(_ r: FileRecord) throws {
        do {
            try db.run("INSERT INTO parse_files (name, blob_hash, size, content_type, metadata, created_at) "
                       + "VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(r.name), .text(r.blobHash), .integer(Int64(r.size)), r.contentType.map { .text($0) } ?? .null,
                        r.metadata.map { .text(JSON.object($0).serialized()) } ?? .null, .text(r.createdAt)])
        } catch {
            throw mapConflict(error)
        }
    }

    @discardableResult
    func deleteFile(_ name: String) throws -> Bool {
        try db.run("DELETE FROM parse_files WHERE name = ?", [.text(name)]) > 0
    }

    // MARK: Config

    func configEntries() throws -> [ConfigEntry] {
        try db.query("SELECT key, value, master_only FROM parse_config ORDER BY key").compactMap { row in
            guard let key = row["key"].string, let text = row["value"].string,
                  let value = try? JSONParser.parse(text, options: StoredJSON.options) else { return nil }
            return ConfigEntry(key: key, value: value, masterOnly: (row["master_only"].int64 ?? 0) != 0)
        }
    }

    func setConfig(_ e: ConfigEntry) throws {
        try db.run("INSERT INTO parse_config (key, value, master_only) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE "
                   + "SET value = excluded.value, master_only = excluded.master_only",
                   [.text(e.key), .text(e.value.serialized()), .integer(e.masterOnly ? 1 : 0)])
    }

    func deleteConfig(_ key: String) throws {
        try db.run("DELETE FROM parse_config WHERE key = ?", [.text(key)])
    }

    // MARK: Idempotency

    func requestIdRecorded(_ id: String, nowMillis: Int) throws -> Bool {
        try db.queryOne("SELECT 1 AS x FROM parse_idempotency WHERE request_id = ? AND expires_at > ?",
                        [.text(id), .integer(Int64(nowMillis))]) != nil
    }

    func recordRequestId(_ id: String, expiresAt: Int, nowMillis: Int) throws {
        // An expired record of the same id is replaced; a live one makes the insert fail (-> 159).
        try db.run("DELETE FROM parse_idempotency WHERE request_id = ? AND expires_at <= ?",
                   [.text(id), .integer(Int64(nowMillis))])
        // Now and then, sweep every expired record so the table stays small.
        if Int.random(in: 0..<256) == 0 {
            try db.run("DELETE FROM parse_idempotency WHERE expires_at <= ?", [.integer(Int64(nowMillis))])
        }
        do {
            try db.run("INSERT INTO parse_idempotency (request_id, expires_at) VALUES (?, ?)",
                       [.text(id), .integer(Int64(expiresAt))])
        } catch {
            throw mapConflict(error)
        }
    }

    // MARK: Settings

    func setting(_ key: String) throws -> String? {
        try db.queryOne("SELECT value FROM quartet_settings WHERE key = ?", [.text("parse." + key)])?["value"].string
    }

    func setSetting(_ key: String, _ value: String) throws {
        try db.run("INSERT INTO quartet_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                   [.text("parse." + key), .text(value)])
    }
}
