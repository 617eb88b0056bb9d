import Core
import Storage

/// Declared indexes (§5.6): an expression index on the field's value in `bb_objects.data`, used by the BQL
/// compiler for `where` comparisons and `sort by`. The expression is exactly the compiler's
/// (`SQLFragment.fieldValue`), which the planner requires; the field's catalogue id names both, so the DDL
/// holds no client text.
enum IndexSQL {
    static func name(fieldID: Int64) -> String { "bb_ix_\(fieldID)" }

    /// `CREATE INDEX bb_ix_12 ON bb_objects(json_extract(data, '$.f12'), space, entity, created_at, id) WHERE
    /// ... IS NOT NULL`: the value, then created_at and id, so an equality lists its matches already in the
    /// default order and a page stops after `limit` rows. space and entity are the same for every row that
    /// has the field (field ids are per environment and entity), so they do not disturb that order, and
    /// they make the index covering for `count(*)`. Partial, so objects without the field cost nothing; any
    /// comparison on the expression implies IS NOT NULL, which lets SQLite use the partial index.
    static func create(fieldID: Int64) -> String {
        let expression = "json_extract(data, '$.f\(fieldID)')"
        return "CREATE INDEX IF NOT EXISTS \(name(fieldID: fieldID)) ON bb_objects(\(expression), space, entity, created_at, id)"
            + " WHERE \(expression) IS NOT NULL"
    }

    static func drop(fieldID: Int64) -> String { "DROP INDEX IF EXISTS \(name(fieldID: fieldID))" }
}

extension SQLiteBackbeamStore {
    public func declareIndex(space: SpaceID, entity: String, field: String, now: Int64) throws -> Bool {
        let (created, catalogueChanged) = try storage.writeAndWait { ctx -> (Bool, Bool) in
            let db = ctx.db
            let key: [SQLValue] = [.integer(space.value), .text(entity), .text(field)]
            guard try db.queryOne("SELECT 1 FROM bb_indexes WHERE space = ? AND entity = ? AND name = ?", key) == nil else {
                return (false, false)
            }
            var changed = false
            var fieldID = try db.queryOne("SELECT id FROM bb_fields WHERE space = ? AND entity = ? AND name = ?", key)?[0].int64
            if fieldID == nil {
                // A field with no value yet: catalogued without a type, so that its future values land under
                // the id the index already covers.
                try db.run("INSERT INTO bb_fields (space, entity, name) VALUES (?, ?, ?)", key)
                fieldID = db.lastInsertRowID
                changed = true
            }
            let id = fieldID ?? 0
            try db.run("INSERT INTO bb_indexes (space, entity, name, field, created_at) VALUES (?, ?, ?, ?, ?)",
                       key + [.integer(id), .integer(now)])
            try db.execute(IndexSQL.create(fieldID: id))
            return (true, changed)
        }
        // The catalogue marks indexed fields (the admin schema shows them), so it changed either way.
        if catalogueChanged || created { self.catalogueChanged() }
        if created { try? storage.refreshStatistics() }
        return created
    }

    public func dropIndex(space: SpaceID, entity: String, field: String) throws -> Bool {
        let dropped = try storage.writeAndWait { ctx -> Bool in
            let key: [SQLValue] = [.integer(space.value), .text(entity), .text(field)]
            guard let id = try ctx.db.queryOne("SELECT field FROM bb_indexes WHERE space = ? AND entity = ? AND name = ?",
                                               key)?[0].int64 else { return false }
            try ctx.db.run("DELETE FROM bb_indexes WHERE space = ? AND entity = ? AND name = ?", key)
            try ctx.db.execute(IndexSQL.drop(fieldID: id))
            return true
        }
        if dropped { catalogueChanged() }
        return dropped
    }

    public func indexes(space: SpaceID) throws -> [(entity: String, field: String)] {
        try storage.read { db in
            try db.query("SELECT entity, name FROM bb_indexes WHERE space = ? ORDER BY entity, name",
                         [.integer(space.value)]).compactMap { row in
                guard let entity = row[0].string, let name = row[1].string else { return nil }
                return (entity, name)
            }
        }
    }
}
