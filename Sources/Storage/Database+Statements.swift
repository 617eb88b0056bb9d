import CSQLite

extension Database {
    /// Binds `args` to the (cached) statement for `sql`, runs `body` while they are bound, then resets the
    /// statement.
    func withStatement<T>(_ sql: String, _ args: [SQLValue], _ body: (Statement) throws -> T) throws -> T {
        let statement = try checkOut(sql)
        statement.inUse = true
        defer {
            statement.reset()
            statement.inUse = false
        }
        return try statement.withBindings(args, connection: handle) { try body(statement) }
    }

    /// The cached statement for `sql`, or a newly prepared one (cached unless the cached one is busy,
    /// which happens when the same SQL runs again inside a `forEach` body).
    private func checkOut(_ sql: String) throws -> Statement {
        if let cached = statementCache.statement(for: sql) {
            if !cached.inUse { return cached }
            return try prepare(sql, persistent: false)
        }
        let statement = try prepare(sql, persistent: true)
        statementCache.insert(statement)
        return statement
    }

    /// Compiles exactly one statement. Text after it (other than whitespace and `;`) is rejected: it
    /// would silently never run.
    func prepare(_ sql: String, persistent: Bool) throws -> Statement {
        if isClosed { throw StorageError.closed }
        var pointer: OpaquePointer?
        var tailOffset = 0
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(handle, start, -1, flags, &pointer, &tail)
            if let tail { tailOffset = start.distance(to: tail) }
            return rc
        }
        guard rc == SQLITE_OK else {
            sqlite3_finalize(pointer)
            // A statement that does not compile is a caller's mistake (bad syntax, unknown table/column).
            let error = StorageError.from(code: rc, connection: handle)
            if case .sqlite = error { throw StorageError.misuse("\(errorMessage) in: \(sql)") }
            throw error
        }
        guard let compiled = pointer else {
            throw StorageError.misuse("no statement in: \(sql)")
        }
        let statement = Statement(handle: compiled, sql: sql)
        let rest = sql.utf8.dropFirst(tailOffset)
        guard rest.allSatisfy({ $0 == UInt8(ascii: ";") || $0 == 0x20 || (0x09...0x0d).contains($0) }) else {
            throw StorageError.misuse("more than one statement (use execute for scripts): \(sql)")
        }
        return statement
    }
}
