import CSQLiteBaseline

/// A failed SQLite call, with SQLite's own message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "sqlite error \(code): \(message)" }
}

/// SQLITE_TRANSIENT: tells SQLite to copy bound text before the call returns.
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection with a prepared insert. Unchecked Sendable: the program uses each instance
/// from one thread only, or (in --shared mode) only while holding the shared lock.
final class Connection: @unchecked Sendable {
    private var db: OpaquePointer?
    private var insert: OpaquePointer?

    init(path: String, synchronous: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw error()
        }
        // Same pragma order as Quartet's storage: busy_timeout, WAL, synchronous.
        try execute("PRAGMA busy_timeout=5000")
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=\(synchronous)")
        try execute("""
            CREATE TABLE IF NOT EXISTS bench(
                id INTEGER PRIMARY KEY, thread INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL)
            """)
        guard sqlite3_prepare_v2(db, "INSERT INTO bench(thread, seq, payload) VALUES (?, ?, ?)", -1, &insert, nil) == SQLITE_OK else {
            throw error()
        }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close_v2(db)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error() }
    }

    /// Inserts one row in its own (autocommit) transaction; returns false when SQLite stayed busy
    /// past busy_timeout, throws on any other failure.
    func insertRow(thread: Int, seq: Int, payload: String) throws -> Bool {
        defer {
            sqlite3_reset(insert)
            sqlite3_clear_bindings(insert)
        }
        sqlite3_bind_int64(insert, 1, Int64(thread))
        sqlite3_bind_int64(insert, 2, Int64(seq))
        sqlite3_bind_text(insert, 3, payload, -1, transient)
        let rc = sqlite3_step(insert)
        if rc == SQLITE_DONE { return true }
        if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { return false }
        throw error()
    }

    /// Inserts `count` rows in one explicit transaction; returns false when SQLite stayed busy past
    /// busy_timeout before the transaction began, throws on any other failure (after a rollback).
    func insertRows(thread: Int, seq: Int, count: Int, payload: String) throws -> Bool {
        let rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { return false }
        guard rc == SQLITE_OK else { throw error() }
        do {
            for i in 0..<count {
                guard try insertRow(thread: thread, seq: seq + i, payload: payload) else { throw error() }
            }
            try execute("COMMIT")
            return true
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func error() -> SQLiteError {
        SQLiteError(code: sqlite3_errcode(db), message: String(cString: sqlite3_errmsg(db)))
    }
}
