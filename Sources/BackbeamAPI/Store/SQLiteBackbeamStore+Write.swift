import Core
import Storage

extension SQLiteBackbeamStore {
    public func create(_ request: WriteRequest) throws -> ObjectRecord {
        let (record, catalogueChanged) = try storage.writeAndWait { ctx -> (ObjectRecord, Bool) in
            var writer = ObjectWriter(db: ctx.db, request: request)
            let record = try writer.create()
            return (record, writer.catalogueChanged)
        }
        if catalogueChanged { self.catalogueChanged() }
        return record
    }

    public func update(_ request: WriteRequest) throws -> ObjectRecord? {
        let (record, catalogueChanged) = try storage.writeAndWait { ctx -> (ObjectRecord?, Bool) in
            var writer = ObjectWriter(db: ctx.db, request: request)
            let record = try writer.update()
            return (record, writer.catalogueChanged)
        }
        if catalogueChanged { self.catalogueChanged() }
        return record
    }

    public func delete(space: SpaceID, entity: String, id: String) throws -> ObjectRecord? {
        try storage.writeAndWait { ctx -> ObjectRecord? in
            guard let record = try ObjectRows.load(ctx.db, space: space, id: id), record.entity == entity else { return nil }
            try self.releaseFile(ctx, seq: record.seq)
            try Cascade.delete(ctx.db, seq: record.seq)
            return record
        }
    }

    public func remove(_ request: QueryRequest) throws -> Int {
        try storage.writeAndWait { ctx -> Int in
            let catalogue = try Self.loadCatalogue(ctx.db, space: request.space)
            let runner = QueryRunner(db: ctx.db, catalogue: catalogue, request: request)
            let seqs = try runner.matchingSeqs()
            for seq in seqs {
                try self.releaseFile(ctx, seq: seq)
                try Cascade.delete(ctx.db, seq: seq)
            }
            return seqs.count
        }
    }
}

/// The deletion of one object with every effect of §5.2.7, inside the caller's transaction: its links in
/// both directions, to-one references to it (their owners re-rendered), its own references, full-text and
/// geo rows, and for users their login data, identities, sessions and codes.
enum Cascade {
    static func delete(_ db: Database, seq: Int64) throws {
        let object: [SQLValue] = [.integer(seq)]
        var owners: [Int64] = []
        for row in try db.query("SELECT DISTINCT owner FROM bb_refs WHERE target = ?", object) {
            if let owner = row[0].int64, owner != seq { owners.append(owner) }
        }
        try db.run("DELETE FROM bb_refs WHERE target = ?", object)
        try db.run("DELETE FROM bb_refs WHERE owner = ?", object)
        for owner in owners {
            try db.run("UPDATE bb_objects SET refs = ? WHERE seq = ?",
                       [.blobText(try StoredMembers.references(db, owner: owner)), .integer(owner)])
        }
        try db.run("DELETE FROM bb_links WHERE owner = ?", object)
        try db.run("DELETE FROM bb_links WHERE member = ?", object)
        try FullTextSQL.remove(db, object: seq)
        try db.run("DELETE FROM bb_geo WHERE object = ?", object)
        try db.run("DELETE FROM bb_sessions WHERE object = ?", object)
        try db.run("DELETE FROM bb_codes WHERE object = ?", object)
        try db.run("DELETE FROM bb_identities WHERE object = ?", object)
        try db.run("DELETE FROM bb_users WHERE object = ?", object)
        try db.run("DELETE FROM bb_objects WHERE seq = ?", object)
    }
}

/// Reading stored objects by key.
enum ObjectRows {
    /// The columns every object read selects, in `record(_:)`'s order.
    static let columns = "o.seq, o.id, o.entity, o.created_at, o.updated_at, o.vals, o.refs, o.login"

    /// The same columns of the object aliased `alias`.
    static func columns(alias: String) -> String {
        ["seq", "id", "entity", "created_at", "updated_at", "vals", "refs", "login"].map { alias + "." + $0 }
            .joined(separator: ", ")
    }

    /// `columns(alias: "t<position>")`, made once for the first positions: every query with a to-one join
    /// built the list again (about 11,000 instructions per query).
    static func joinColumns(position: Int) -> String {
        joinColumnLists.indices.contains(position) ? joinColumnLists[position] : columns(alias: "t\(position)")
    }

    private static let joinColumnLists = (0..<8).map { columns(alias: "t\($0)") }

    /// The target key of the to-one join at `position` (`QueryRunner.ToOneJoin.keyOnly`), made once for the
    /// first positions like `joinColumns`.
    static func joinKeyColumn(position: Int) -> String {
        joinKeyColumns.indices.contains(position) ? joinKeyColumns[position] : "r\(position).target"
    }

    private static let joinKeyColumns = (0..<8).map { "r\($0).target" }

    /// This connection's data version (`CountCache`).
    static let dataVersionStatement = "PRAGMA data_version"

    /// The objects whose internal keys are bound as one JSON array, in the array's order: SQLite walks the
    /// array and seeks each key (CROSS JOIN fixes that order whatever the planner's estimates). One text, so
    /// the connection finds its prepared statement by address.
    static let targetsStatement = "SELECT " + columns
        + " FROM json_each(?) j CROSS JOIN bb_objects o ON o.seq = j.value"

    /// The object `id` of the environment, or nil.
    static func load(_ db: Database, space: SpaceID, id: String) throws -> ObjectRecord? {
        var found: ObjectRecord?
        try db.forEachRow("""
            SELECT o.seq, o.id, o.entity, o.created_at, o.updated_at, o.vals, o.refs, o.login
            FROM bb_objects o WHERE o.space = ? AND o.id = ?
            """, [.integer(space.value), .text(id)]) { row in
            found = record(row)
            return false
        }
        return found
    }

    /// The object `id` of `entity` rendered as a response member (`"<id>":{...}`), or nil when there is no
    /// such object of that entity.
    static func render(_ db: Database, space: SpaceID, id: String, entity: String) throws -> [UInt8]? {
        var out: [UInt8]?
        try db.forEachRow("""
            SELECT o.seq, o.id, o.entity, o.created_at, o.updated_at, o.vals, o.refs, o.login
            FROM bb_objects o WHERE o.space = ? AND o.id = ?
            """, [.integer(space.value), .text(id)]) { row in
            guard let idBytes = row.text(1), let entityBytes = row.text(2), entityBytes.elementsEqual(entity.utf8) else {
                return false
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(128 + (row.text(5)?.count ?? 0) + (row.text(6)?.count ?? 0))
            ObjectBytes.appendMember(id: idBytes, entity: entityBytes, createdAt: row.int64(3) ?? 0,
                                     updatedAt: row.int64(4) ?? 0, vals: row.text(5), refs: row.text(6),
                                     login: row.text(7), joined: [], to: &bytes)
            out = bytes
            return false
        }
        return out
    }

    /// The objects with these internal keys, in no particular order.
    static func load(_ db: Database, seqs: [Int64]) throws -> [ObjectRecord] {
        guard !seqs.isEmpty else { return [] }
        var out: [ObjectRecord] = []
        out.reserveCapacity(seqs.count)
        let list = "[" + seqs.map(String.init).joined(separator: ",") + "]"
        try db.forEachRow("""
            SELECT o.seq, o.id, o.entity, o.created_at, o.updated_at, o.vals, o.refs, o.login
            FROM bb_objects o WHERE o.seq IN (SELECT value FROM json_each(?))
            """, [.text(list)]) { row in
            out.append(record(row))
            return true
        }
        return out
    }

    /// A record from the first eight columns of `row` (the order of `columns`).
    static func record(_ row: ColumnReader, offset: Int = 0) -> ObjectRecord {
        ObjectRecord(seq: row.int64(offset) ?? 0,
                     id: row.string(offset + 1) ?? "",
                     entity: row.string(offset + 2) ?? "",
                     createdAt: row.int64(offset + 3) ?? 0,
                     updatedAt: row.int64(offset + 4) ?? 0,
                     vals: row.text(offset + 5).map { Array($0) } ?? [],
                     refs: row.text(offset + 6).map { Array($0) } ?? [],
                     login: row.text(offset + 7).map { Array($0) } ?? [])
    }
}
