import CSQLite

/// SQLite's "copy the bytes now" destructor sentinel (the C macro SQLITE_TRANSIENT is not imported); only
/// the empty text is bound with it (`Statement.withBindings` binds the others from a buffer of its own).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement. Owned by a `Database` (directly or through its cache); never shared across
/// connections, so it follows its connection's thread confinement.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    /// True while a call is stepping through it; a nested use of the same SQL then prepares a fresh one.
    var inUse = false
    /// Column names, read once (they do not change for a prepared statement on an unchanged schema).
    private(set) lazy var columnNames: [String] = {
        let count = sqlite3_column_count(handle)
        guard count > 0 else { return [] }
        return (0..<count).map { i in
            sqlite3_column_name(handle, i).map { String(cString: $0) } ?? ""
        }
    }()

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `args` to the positional parameters (1-based in SQLite; the count must match exactly), runs
    /// `body` while they are bound, then resets the statement and clears its bindings.
    ///
    /// Texts and blobs are copied once, all into one buffer that lives until `body` has returned and the
    /// statement is reset, and bound from there without SQLite's own copy (`SQLITE_STATIC`). Bound with
    /// `SQLITE_TRANSIENT`, each value cost an allocation and a copy, and a free when the bindings were
    /// cleared: about 2,500 instructions per document of a replicated `_bulk_docs` run of new documents,
    /// which binds four texts and a blob per document. SQLite reads a static binding until the statement
    /// is reset or the parameter rebound, which is why both happen before the buffer's scope ends.
    func withBindings<T>(_ args: [SQLValue], connection: OpaquePointer, _ body: () throws -> T) throws -> T {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == args.count else {
            throw StorageError.misuse("statement expects \(expected) argument(s), got \(args.count): \(sql)")
        }
        var size = 0
        for value in args {
            switch value {
            case .text(let text): size += text.utf8.count
            case .blob(let bytes): size += bytes.count
            default: break
            }
        }
        var storage: [UInt8] = []
        storage.reserveCapacity(size)
        for value in args {
            switch value {
            case .text(let text): storage.append(contentsOf: text.utf8)
            case .blob(let bytes): storage.append(contentsOf: bytes)
            default: break
            }
        }
        return try storage.withUnsafeBufferPointer { buffer in
            defer { reset() }
            var offset = 0
            for (position, value) in args.enumerated() {
                let index = Int32(position + 1)
                let rc: Int32
                switch value {
                case .null:
                    rc = sqlite3_bind_null(handle, index)
                case .integer(let v):
                    rc = sqlite3_bind_int64(handle, index, v)
                case .real(let v):
                    rc = sqlite3_bind_double(handle, index, v)
                case .text(let text):
                    let count = text.utf8.count
                    // An empty text has no bytes in the buffer (whose base may be nil): '' is bound, not NULL.
                    if count > 0, let base = buffer.baseAddress {
                        rc = UnsafeRawPointer(base + offset).withMemoryRebound(to: CChar.self, capacity: count) { chars in
                            sqlite3_bind_text64(handle, index, chars, sqlite3_uint64(count), nil, UInt8(SQLITE_UTF8))
                        }
                    } else {
                        rc = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
                    }
                    offset += count
                case .blob(let bytes):
                    // A nil pointer would bind NULL, so an empty blob is bound as a zero-length blob.
                    if bytes.count > 0, let base = buffer.baseAddress {
                        rc = sqlite3_bind_blob64(handle, index, base + offset, sqlite3_uint64(bytes.count), nil)
                    } else {
                        rc = sqlite3_bind_zeroblob(handle, index, 0)
                    }
                    offset += bytes.count
                }
                guard rc == SQLITE_OK else { throw StorageError.from(code: rc, connection: connection) }
            }
            return try body()
        }
    }

    /// Steps once: true when a row is available, false when done.
    func step(connection: OpaquePointer) throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw StorageError.from(code: rc, connection: connection)
        }
    }

    /// The current row's values.
    func currentRow() -> Row {
        let names = columnNames
        var values: [SQLValue] = []
        values.reserveCapacity(names.count)
        for i in 0..<Int32(names.count) {
            values.append(column(i))
        }
        return Row(columns: names, values: values)
    }

    private func column(_ i: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT:
            // Read the pointer before the length, as SQLite documents, so no conversion happens in between.
            guard let text = sqlite3_column_text(handle, i) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, i))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let raw = sqlite3_column_blob(handle, i) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, i))
            return .blob(Array(UnsafeRawBufferPointer(start: raw, count: count)))
        default:
            return .null
        }
    }

    /// Makes the statement reusable: resets it and drops bindings so no argument leaks into the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}
