import CSQLiteBaseline

/// One SQLite connection with a prepared primary-key lookup on the `docs` table of the lookup mode.
/// Unchecked Sendable: the program uses each instance from one thread only, or (in --shared mode) only
/// while holding the shared lock.
final class LookupConnection: @unchecked Sendable {
    private var db: OpaquePointer?
    private var select: OpaquePointer?

    /// Opens `path` (created by `seed`) and prepares the lookup. The pragmas are those of Quartet's
    /// readers: WAL, and the same 256 MiB `mmap_size`, so pages come from the shared OS page cache in
    /// both and the baseline is not slowed by copies Quartet does not make.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw error()
        }
        try execute("PRAGMA busy_timeout=5000")
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA mmap_size=\(256 << 20)")
        // Text keys like the Couch documents' ids: a lookup is a seek in the key's index, then in the table.
        try execute("CREATE TABLE IF NOT EXISTS docs(id TEXT PRIMARY KEY, rev TEXT NOT NULL, body TEXT NOT NULL)")
        guard sqlite3_prepare_v2(db, "SELECT rev, body FROM docs WHERE id = ?", -1, &select, nil) == SQLITE_OK else {
            throw error()
        }
    }

    deinit {
        sqlite3_finalize(select)
        sqlite3_close_v2(db)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error() }
    }

    /// Inserts `count` rows with ids `LookupConnection.key(0..<count)` and `body` in one transaction.
    func seed(count: Int, body: String) throws {
        var insert: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO docs(id, rev, body) VALUES (?, ?, ?)", -1, &insert, nil) == SQLITE_OK else {
            throw error()
        }
        defer { sqlite3_finalize(insert) }
        try execute("BEGIN IMMEDIATE")
        for i in 0..<count {
            sqlite3_bind_text(insert, 1, Self.key(i), -1, transient)
            sqlite3_bind_text(insert, 2, "1-967a00dff5e02add41819138abb3284d", -1, transient)
            sqlite3_bind_text(insert, 3, body, -1, transient)
            guard sqlite3_step(insert) == SQLITE_DONE else {
                _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                throw error()
            }
            sqlite3_reset(insert)
        }
        try execute("COMMIT")
    }

    /// The id of row `i`, as the Couch section names its seeded documents.
    static func key(_ i: Int) -> String {
        let digits = String(i)
        return "doc" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Looks `key` up, steps through its columns and returns the bytes read (0 when the row is missing),
    /// resetting the statement for the next lookup.
    func lookup(_ key: String) throws -> Int {
        defer {
            sqlite3_reset(select)
            sqlite3_clear_bindings(select)
        }
        sqlite3_bind_text(select, 1, key, -1, transient)
        var bytes = 0
        while true {
            let rc = sqlite3_step(select)
            if rc == SQLITE_DONE { return bytes }
            guard rc == SQLITE_ROW else { throw error() }
            // Touch both columns as a server copying the row into its answer would.
            for column in Int32(0)..<2 {
                guard let text = sqlite3_column_text(select, column) else { throw error() }
                _ = text
                bytes += Int(sqlite3_column_bytes(select, column))
            }
        }
    }

    private func error() -> SQLiteError {
        SQLiteError(code: sqlite3_errcode(db), message: String(cString: sqlite3_errmsg(db)))
    }
}
