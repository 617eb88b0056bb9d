import Core
import Foundation
import Storage
import Logging

/// The SQLite implementation of `ParseStore` over the shared Quartet storage.
final class SQLiteParseStore: ParseStore {
    let storage: Storage
    /// Whether this database may have full-text indexes (see `TextIndexPresence`).
    let textIndexes = TextIndexPresence()
    /// Class schemas (nil: the class has none) as write jobs committed them, so that a create does not read
    /// and decode its class's schema row again for every object. Class names are client-chosen, hence the
    /// bound.
    let writerSchemas = WriterCache<ClassSchema?>(capacity: 512)

    init(storage: Storage) { self.storage = storage }

    func refreshStatistics() throws { try storage.refreshStatistics() }

    func read<T>(_ body: (any ParseTransaction) throws -> T) throws -> T {
        try storage.read { db in try body(SQLiteTransaction(db: db, textIndexes: textIndexes)) }
    }

    func readStatement<T>(_ body: (any ParseTransaction) throws -> T) throws -> T {
        try storage.readStatement { db in try body(SQLiteTransaction(db: db, textIndexes: textIndexes)) }
    }

    var heavyReads: ReaderShare? { storage.heavyReads }

    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T) throws -> T {
        return try storage.writeAndWait { [self] ctx in try body(transaction(ctx)) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        storage.write({ [self] ctx in try body(transaction(ctx)) }, completion: completion)
    }

    /// The Parse view of a write job's connection.
    private func transaction(_ ctx: WriteContext) -> SQLiteTransaction {
        SQLiteTransaction(db: ctx.db, textIndexes: textIndexes,
                          writer: SQLiteTransaction.Writer(schemas: writerSchemas, context: ctx))
    }

    func addFile(_ record: FileRecord, blobs: BlobStore) throws {
        try storage.writeAndWait { [self] ctx in
            try transaction(ctx).insertFile(record)
            try blobs.retain(record.blobHash, in: ctx)
        }
    }

    func removeFile(_ name: String, blobs: BlobStore) throws -> Bool {
        return try storage.writeAndWait { [self] ctx -> Bool in
            let tx = transaction(ctx)
            guard let record = try tx.file(name) else { return false }
            try tx.deleteFile(name)
            try blobs.release(record.blobHash, in: ctx)
            return true
        }
    }
}

/// One connection seen through the Parse operations. All of the API's object SQL lives here.
final class SQLiteTransaction: ParseTransaction {
    /// What a write job's transaction knows beyond its connection.
    struct Writer {
        let schemas: WriterCache<ClassSchema?>
        let context: WriteContext
    }

    let db: Database
    let textIndexes: TextIndexPresence
    /// Set inside write jobs, nil on read connections.
    let writer: Writer?
    var schemaChanges = 0

    init(db: Database, textIndexes: TextIndexPresence, writer: Writer? = nil) {
        self.db = db
        self.textIndexes = textIndexes
        self.writer = writer
    }

    func withTimeLimit(until deadline: Deadline, _ body: () throws -> Void) throws {
        do {
            try db.withTimeLimit(untilUptimeNanoseconds: deadline.uptimeNanoseconds, body)
        } catch StorageError.interrupted {
            throw ParseError(124, "Query timed out.")
        }
    }

    /// The columns of an object row; `StoredText(columns:first:)` reads them by position, in this order.
    static let objectColumns = "o.class, o.id, o.data, o.acl, o.created_at, o.updated_at"

    func value(_ s: SQLScalar) -> SQLValue {
        switch s {
        case .null: return .null
        case .integer(let i): return .integer(i)
        case .real(let d): return .real(d)
        case .text(let t): return .text(t)
        }
    }

    /// The parsed objects of a statement selecting `objectColumns`.
    func objects(_ sql: String, _ args: [SQLValue]) throws -> [StoredObject] {
        var objects: [StoredObject] = []
        try db.forEachRow(sql, args) { objects.append(try StoredText(columns: $0).decoded()); return true }
        return objects
    }

    /// Maps SQLite uniqueness failures to the rule that was broken.
    func mapConflict(_ error: any Error) -> any Error {
        guard case StorageError.constraint(let message) = error else { return error }
        if message.contains("parse_users_username") { return StoreConflict.username }
        if message.contains("parse_users_email") { return StoreConflict.email }
        if message.contains("parse_roles_name") { return StoreConflict.roleName }
        if message.contains("parse_sessions_token") { return StoreConflict.sessionToken }
        if message.contains("parse_idempotency") { return StoreConflict.requestId }
        if message.contains("parse_files") { return StoreConflict.fileName }
        if message.contains("parse_objects") { return StoreConflict.objectId }
        return StoreConflict.other
    }

    // MARK: Objects

    func object(_ className: String, _ objectId: String) throws -> StoredObject? {
        try storedObject(className, objectId)?.decoded()
    }

    func storedObject(_ className: String, _ objectId: String, comparingData expected: [UInt8]) throws
        -> (row: StoredText, dataMatches: Bool)? {
        var found: (StoredText, Bool)?
        try db.forEachRow("SELECT o.class, o.id, NULL, o.acl, o.created_at, o.updated_at, o.data FROM parse_objects o "
                          + "WHERE o.class = ? AND o.id = ?", [.text(className), .text(objectId)]) { row in
            var header = StoredText(columns: row)
            header.data = []
            let matches = row.text(6).map { stored in
                stored.count == expected.count && expected.withUnsafeBufferPointer { mine in
                    guard let a = stored.baseAddress, let b = mine.baseAddress else { return stored.isEmpty }
                    return memcmp(a, b, stored.count) == 0
                }
            } ?? false
            found = (header, matches)
            return false
        }
        return found
    }

    func storedObject(_ className: String, _ objectId: String) throws -> StoredText? {
        var found: StoredText?
        try db.forEachRow("SELECT \(Self.objectColumns) FROM parse_objects o WHERE o.class = ? AND o.id = ?",
                          [.text(className), .text(objectId)]) { row in
            found = StoredText(columns: row)
            return false
        }
        return found
    }

    /// One statement for a GET by id: the object row, with the class's schema columns as scalar subqueries
    /// (a join measured three times slower in SQLite) and the query path's ACL condition
    /// (`SQLiteQueryRenderer.aclCondition`) evaluated on the row. `fields` is NOT NULL, so a NULL there
    /// means the class has no stored schema.
    func schemaAndObject(_ className: String, _ objectId: String, caller: Caller) throws -> SchemaAndObject? {
        var args: [SQLValue] = [.text(className), .text(objectId)]
        var sql = Self.schemaAndObjectSQL.master
        if !caller.readsAsMaster {
            sql = Self.schemaAndObjectSQL.acl
            args.append(value(SQLiteQueryRenderer.aclArgument(ReaderGroup(caller))))
        }
        var found: SchemaAndObject?
        try db.forEachRow(sql, args) { row in
            // Columns as schemaAndObjectSQL orders them: fields, clp, indexes, the object's, readable.
            let schema = try row.isNull(0) ? nil : decodeSchema(className, columns: row, first: 0)
            found = SchemaAndObject(schema: schema, stored: StoredText(columns: row, first: 3),
                                    readable: row.int64(9) == 1)
            return false
        }
        return found
    }

    /// The statement of `schemaAndObject`, for the master key and for everyone else (the ACL condition,
    /// whose group is ?3). Built once: the text was assembled again for every GET.
    static let schemaAndObjectSQL: (master: String, acl: String) = {
        func sql(readable: String) -> String {
            "SELECT (SELECT fields FROM parse_schemas WHERE class = ?1) AS s_fields, "
                + "(SELECT clp FROM parse_schemas WHERE class = ?1) AS s_clp, "
                + "(SELECT indexes FROM parse_schemas WHERE class = ?1) AS s_indexes, "
                + "\(objectColumns), \(readable) AS readable FROM parse_objects o WHERE o.class = ?1 AND o.id = ?2"
        }
        // Numbered: a bare `?` in the select list would take number 2, before the WHERE's ?1 and ?2.
        return (sql(readable: "1"), sql(readable: "(\(SQLiteQueryRenderer.aclConditionSQL(placeholder: "?3")))"))
    }()

    func objects(_ className: String, ids: [String]) throws -> [StoredObject] {
        guard !ids.isEmpty else { return [] }
        let list = JSON.array(ids.map { .string($0) }).serialized()
        return try objects("SELECT \(Self.objectColumns) FROM parse_objects o WHERE o.class = ? AND o.id IN "
                           + "(SELECT value FROM json_each(?))", [.text(className), .text(list)])
    }

    func insert(_ o: StoredObject, serializedData: String?) throws {
        let perms = ACLPermissions(o.acl)
        do {
            try db.run("INSERT INTO parse_objects (class, id, data, acl, rperm, wperm, created_at, updated_at) "
                       + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       [.text(o.className), .text(o.objectId), .text(serializedData ?? JSON.object(o.data).serialized()),
                        o.acl.map { .text(JSON.object($0).serialized()) } ?? .null,
                        perms.readJSON.map { .text($0) } ?? .null, perms.writeJSON.map { .text($0) } ?? .null,
                        .text(o.createdAt), .text(o.updatedAt)])
        } catch {
            throw mapConflict(error)
        }
    }

    func update(_ o: StoredObject, serializedData: String?) throws {
        let perms = ACLPermissions(o.acl)
        do {
            try db.run("UPDATE parse_objects SET data = ?, acl = ?, rperm = ?, wperm = ?, updated_at = ? "
                       + "WHERE class = ? AND id = ?",
                       [.text(serializedData ?? JSON.object(o.data).serialized()),
                        o.acl.map { .text(JSON.object($0).serialized()) } ?? .null,
                        perms.readJSON.map { .text($0) } ?? .null, perms.writeJSON.map { .text($0) } ?? .null,
                        .text(o.updatedAt), .text(o.className), .text(o.objectId)])
        } catch {
            throw mapConflict(error)
        }
    }

    @discardableResult
    func delete(_ className: String, _ objectId: String) throws -> Bool {
        try db.run("DELETE FROM parse_objects WHERE class = ? AND id = ?", [.text(className), .text(objectId)]) > 0
    }

    func deleteAll(_ className: String) throws {
        try db.run("DELETE FROM parse_objects WHERE class = ?", [.text(className)])
    }

    func removeFieldValues(_ className: String, _ field: String) throws {
        var q = CompiledQuery(className: className)
        q.add("\(SQLPath.type(path: [field])) IS NOT NULL")
        // Collected first: rows are rewritten one by one with the field removed.
        let (sql, args) = pagedSQL(q)
        for var o in try objects(sql, args) {
            o.data[field] = nil
            try update(o)
        }
    }

    func count(_ className: String) throws -> Int {
        Int(try db.queryOne("SELECT count(*) AS n FROM parse_objects WHERE class = ?", [.text(className)])?["n"].int64 ?? 0)
    }

    func find(_ className: String, path: [String], equals value: SQLScalar, limit: Int) throws -> [StoredObject] {
        let expr = SQLPath.extract(column: "o.data", path: path)
        return try objects("SELECT \(Self.objectColumns) FROM parse_objects o WHERE o.class = ? AND \(expr) = ? "
                           + "ORDER BY o.seq LIMIT ?", [.text(className), self.value(value), .integer(Int64(limit))])
    }

    func selectSQL(_ q: CompiledQuery, columns: String) -> (String, [SQLValue]) {
        var sql = "SELECT \(columns) FROM parse_objects o WHERE o.class = \(SQLPath.classLiteral(q.className))"
        var args: [SQLValue] = []
        for c in q.conditions { sql += " AND (\(c))" }
        args += q.args.map(value)
        return (sql, args)
    }

    func run(_ plan: QueryPlan) throws -> [StoredObject] {
        let (sql, args) = pagedSQL(SQLiteQueryRenderer.compile(plan))
        return try objects(sql, args)
    }

    func runPlain(_ plan: QueryPlan, into out: inout [UInt8], render: (StoredText) throws -> [UInt8]) throws {
        let (sql, args) = pagedSQL(SQLiteQueryRenderer.compile(plan))
        var first = true
        try db.forEachRow(sql, args) { row in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            // Columns as objectColumns orders them: class, id, data, acl, created_at, updated_at. The buffers
            // are SQLite's own, used before the next step.
            var written = false
            if let id = row.text(1), let data = row.text(2), let created = row.text(4),
               let updated = row.text(5) {
                written = PlainObjectBytes.append(objectId: id, data: data, acl: row.text(3), createdAt: created,
                                                  updatedAt: updated, to: &out)
            }
            if !written { out.append(contentsOf: try render(StoredText(columns: row))) }
            return true
        }
    }

    /// The statement of `run`: the query's order, then creation order, with its page.
    func pagedSQL(_ q: CompiledQuery) -> (String, [SQLValue]) {
        var (sql, args) = streamSQL(q)
        // LIMIT -1 is SQLite's "no limit", needed when only OFFSET is given.
        sql += " LIMIT ? OFFSET ?"
        args += [.integer(Int64(q.limit ?? -1)), .integer(Int64(q.skip))]
        return (sql, args)
    }

    func stream(_ plan: QueryPlan, _ body: (StoredObject) throws -> Bool) throws {
        let (sql, args) = streamSQL(SQLiteQueryRenderer.compile(plan))
        try db.forEachRow(sql, args) { row in try body(try StoredText(columns: row).decoded()) }
    }

    /// The statement of `stream`: the query's order, then creation order.
    func streamSQL(_ q: CompiledQuery) -> (String, [SQLValue]) {
        var (sql, args) = selectSQL(q, columns: Self.objectColumns)
        sql += " ORDER BY " + (q.order + ["o.seq"]).joined(separator: ", ")
        args += q.orderArgs.map(value)
        return (sql, args)
    }

    func runCount(_ plan: QueryPlan) throws -> Int {
        let (sql, args) = countSQL(SQLiteQueryRenderer.compile(plan))
        return Int(try db.queryOne(sql, args)?["n"].int64 ?? 0)
    }

    /// The statement of `runCount`.
    func countSQL(_ q: CompiledQuery) -> (String, [SQLValue]) { selectSQL(q, columns: "count(*) AS n") }
}
