import CSQLite

/// Everything that can go wrong in Storage, with SQLite's own message where there is one.
public enum StorageError: Error, Sendable, Equatable {
    /// SQLITE_BUSY after the busy timeout (and any retries) ran out.
    case busy(String)
    /// SQLITE_LOCKED: a conflict inside this process's shared cache or the same connection.
    case locked(String)
    /// SQLITE_CONSTRAINT: unique, primary key, foreign key, check or not-null violation.
    case constraint(String)
    /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is damaged or is not a database.
    case corrupt(String)
    /// SQLITE_FULL: the disk (or the configured size limit) is full.
    case full(String)
    /// SQLITE_READONLY: a write on a read-only connection or file.
    case readOnly(String)
    /// SQLITE_IOERR (any extended I/O code) or a failing file-system call.
    case ioError(String)
    /// SQLITE_MISUSE, SQL that does not compile, or wrong use of this API (e.g. wrong argument count).
    case misuse(String)
    /// SQLITE_TOOBIG: a string or blob over the length limit.
    case tooBig(String)
    /// SQLITE_INTERRUPT: the operation was interrupted.
    case interrupted
    /// The storage (or this connection) has been closed.
    case closed
    /// Any other SQLite result code (extended code and message).
    case sqlite(code: Int32, message: String)
    /// A migration file or the migration history is not acceptable.
    case migration(String)
    /// A blob store failure (malformed hash, missing file, unbalanced release).
    case blob(String)
}

extension StorageError: CustomStringConvertible {
    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .busy(let m): return "database busy: \(m)"
        case .locked(let m): return "database locked: \(m)"
        case .constraint(let m): return "constraint failed: \(m)"
        case .corrupt(let m): return "database corrupt: \(m)"
        case .full(let m): return "disk full: \(m)"
        case .readOnly(let m): return "read-only: \(m)"
        case .ioError(let m): return "I/O error: \(m)"
        case .misuse(let m): return "misuse: \(m)"
        case .tooBig(let m): return "too big: \(m)"
        case .interrupted: return "interrupted"
        case .closed: return "storage closed"
        case .sqlite(let code, let m): return "sqlite error \(code): \(m)"
        case .migration(let m): return "migration: \(m)"
        case .blob(let m): return "blob store: \(m)"
        }
    }
}

extension StorageError {
    /// Maps a (possibly extended) SQLite result code and its message to a typed error.
    /// The primary code is the low byte of an extended code.
    static func from(code: Int32, message: String) -> StorageError {
        switch code & 0xff {
        case SQLITE_BUSY: return .busy(message)
        case SQLITE_LOCKED: return .locked(message)
        case SQLITE_CONSTRAINT: return .constraint(message)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(message)
        case SQLITE_FULL: return .full(message)
        case SQLITE_READONLY: return .readOnly(message)
        case SQLITE_IOERR, SQLITE_CANTOPEN: return .ioError(message)
        case SQLITE_MISUSE: return .misuse(message)
        case SQLITE_TOOBIG: return .tooBig(message)
        case SQLITE_INTERRUPT: return .interrupted
        default: return .sqlite(code: code, message: message)
        }
    }

    /// The typed error for `code`, with the connection's current `sqlite3_errmsg` text.
    static func from(code: Int32, connection: OpaquePointer?) -> StorageError {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "result code \(code)"
        }
        return from(code: code, message: message)
    }

    /// True for errors that a later retry may not hit (busy/locked).
    var isBusy: Bool {
        switch self {
        case .busy, .locked: return true
        default: return false
        }
    }
}
