import CSQLite

/// The current row of a statement being stepped, read column by column (0-based) without building a
/// `Row`: no column names, no value array, and text can be taken as bytes without making a `String`.
///
/// Valid only inside the `Database.forEachRow` call that hands it out; it must not be kept.
public struct ColumnReader {
    let handle: OpaquePointer
    /// The number of columns (fixed for a prepared statement, so read once).
    public let count: Int

    init(handle: OpaquePointer) {
        self.handle = handle
        count = Int(sqlite3_column_count(handle))
    }

    /// True when column `i` is NULL (or out of range).
    public func isNull(_ i: Int) -> Bool {
        guard i >= 0, i < count else { return true }
        return sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL
    }

    /// Column `i` as text; nil when NULL or out of range (numbers are converted by SQLite).
    public func string(_ i: Int) -> String? {
        withBytes(i) { String(decoding: $0, as: UTF8.self) }
    }

    /// Column `i`'s text or blob bytes; nil when NULL or out of range.
    public func bytes(_ i: Int) -> [UInt8]? {
        withBytes(i) { Array($0) }
    }

    /// Column `i` as an integer; nil when NULL or out of range.
    public func int64(_ i: Int) -> Int64? {
        guard !isNull(i) else { return nil }
        return sqlite3_column_int64(handle, Int32(i))
    }

    /// Column `i` of a NOT NULL integer column: one call into SQLite where `int64` makes two (a NULL or
    /// out-of-range column reads 0).
    public func integer(_ i: Int) -> Int64 {
        guard i >= 0, i < count else { return 0 }
        return sqlite3_column_int64(handle, Int32(i))
    }

    /// Calls `body` with column `i`'s text or blob bytes in SQLite's own buffer (valid during the call
    /// only); nil when the column is NULL or out of range.
    public func withBytes<T>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        try buffer(i).map(body)
    }

    /// Column `i`'s text or blob bytes in SQLite's own buffer; nil when NULL or out of range. The buffer is
    /// valid until the statement steps on (never keep it past the `forEachRow` body) or column `i` is read
    /// as another type (`int64`); reading other columns leaves it alone.
    public func buffer(_ i: Int) -> UnsafeBufferPointer<UInt8>? {
        guard i >= 0, i < count else { return nil }
        let column = Int32(i)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return nil
        case SQLITE_BLOB:
            // The pointer before the length, as SQLite documents, so no conversion happens in between.
            let pointer = sqlite3_column_blob(handle, column)
            let length = Int(sqlite3_column_bytes(handle, column))
            guard let pointer, length > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
        default:
            // Numbers are converted to their text, as `string` documents.
            return text(i)
        }
    }
}

extension ColumnReader {
    /// Column `i`'s text bytes in SQLite's own buffer, like `buffer`, for columns that hold text or NULL:
    /// one call fewer per column than `buffer`, which first asks for the column's type (a query's rows
    /// read five columns each, so the saving counts). Nil when NULL or out of range.
    public func text(_ i: Int) -> UnsafeBufferPointer<UInt8>? {
        guard i >= 0, i < count else { return nil }
        let column = Int32(i)
        // The pointer before the length, as SQLite documents. A NULL column has no text pointer; an empty
        // text has one.
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let length = Int(sqlite3_column_bytes(handle, column))
        guard length > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
    }
}

extension Database {
    /// Streams rows to `body` as `ColumnReader`s (valid only during each call); returning false stops early.
    /// For hot paths that read many rows: `forEach` builds a `Row` with every column as a value.
    public func forEachRow(_ sql: String, _ args: [SQLValue] = [], _ body: (ColumnReader) throws -> Bool) throws {
        try withStatement(sql, args) { statement in
            let reader = ColumnReader(handle: statement.handle)
            while try statement.step(connection: handle) {
                guard try body(reader) else { break }
            }
        }
    }
}
