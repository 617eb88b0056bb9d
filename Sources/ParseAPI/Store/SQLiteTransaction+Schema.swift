import Core
import Storage

extension SQLiteTransaction {
    func schema(_ className: String) throws -> ClassSchema? {
        if let writer, let cached = writer.schemas.value(className) { return cached }
        var schema: ClassSchema?
        try db.forEachRow("SELECT fields, clp, indexes FROM parse_schemas WHERE class = ?", [.text(className)]) { row in
            schema = try decodeSchema(className, columns: row, first: 0)
            return false
        }
        if let writer { writer.schemas.remember(schema, for: className, after: writer.context) }
        return schema
    }

    func allSchemas() throws -> [ClassSchema] {
        try db.query("SELECT class, fields, clp, indexes FROM parse_schemas ORDER BY class").map(decodeSchema)
    }

    func saveSchema(_ s: ClassSchema) throws {
        if let writer { writer.schemas.forget(s.className, in: writer.context) }
        var fields = JSONObject()
        for (name, def) in s.fields {
            var o = def.type.schemaJSON
            if def.required { o["required"] = true }
            if let d = def.defaultValue { o["defaultValue"] = d }
            fields[name] = .object(o)
        }
        try db.run("INSERT INTO parse_schemas (class, fields, clp, indexes) VALUES (?, ?, ?, ?) "
                   + "ON CONFLICT(class) DO UPDATE SET fields = excluded.fields, clp = excluded.clp, "
                   + "indexes = excluded.indexes",
                   [.text(s.className), .text(JSON.object(fields).serialized()),
                    s.clp.map { .text(JSON.object($0).serialized()) } ?? .null,
                    .text(JSON.object(s.indexes).serialized())])
    }

    func deleteSchema(_ className: String) throws {
        if let writer { writer.schemas.forget(className, in: writer.context) }
        try db.run("DELETE FROM parse_schemas WHERE class = ?", [.text(className)])
    }

    private func decodeSchema(_ row: Row) throws -> ClassSchema {
        try decodeSchema(row["class"].string ?? "", fields: row["fields"].string, clp: row["clp"].string,
                         indexes: row["indexes"].string)
    }

    /// The schema in a row's columns `fields`, `clp`, `indexes` (from column `first`), read from the row's
    /// buffers: every request of a class reads its schema, so the stored text is compared with the text
    /// decoded before as bytes, and made into strings only when it changed.
    func decodeSchema(_ name: String, columns row: ColumnReader, first: Int) throws -> ClassSchema {
        let fields = row.text(first), clp = row.text(first + 1), indexes = row.text(first + 2)
        if let cached = SchemaDecodeCache.shared.schema(name, fields: fields, clp: clp, indexes: indexes) { return cached }
        let text = { (bytes: UnsafeBufferPointer<UInt8>?) in bytes.map { String(decoding: $0, as: UTF8.self) } }
        return try decodeSchema(name, fields: text(fields), clp: text(clp), indexes: text(indexes))
    }

    /// A schema from its stored columns, decoded once per distinct stored text (`SchemaDecodeCache`).
    func decodeSchema(_ name: String, fields: String?, clp: String?, indexes: String?) throws -> ClassSchema {
        let stored = SchemaDecodeCache.Stored(fields: fields, clp: clp, indexes: indexes)
        if let cached = SchemaDecodeCache.shared.schema(name, stored) { return cached }
        let schema = try decodeSchema(name, stored)
        SchemaDecodeCache.shared.store(schema, stored)
        return schema
    }

    private func decodeSchema(_ name: String, _ stored: SchemaDecodeCache.Stored) throws -> ClassSchema {
        var schema = ClassSchema(className: name)
        if let text = stored.fields, let obj = try? JSONParser.parse(text, options: StoredJSON.options).objectValue {
            for (field, def) in obj {
                guard let d = def.objectValue, let typeName = d["type"]?.stringValue,
                      let type = FieldType.named(typeName, target: d["targetClass"]?.stringValue) else { continue }
                schema.setField(field, FieldDefinition(type: type, required: d["required"]?.boolValue ?? false,
                                                       defaultValue: d["defaultValue"]))
            }
        }
        if let text = stored.clp { schema.clp = try? JSONParser.parse(text, options: StoredJSON.options).objectValue }
        if let text = stored.indexes,
           let obj = try? JSONParser.parse(text, options: StoredJSON.options).objectValue {
            schema.indexes = obj
        }
        return schema
    }

    // MARK: Indexes

    /// Index names are validated (`^[A-Za-z0-9_]{1,64}$`) and class names too, so quoting is enough;
    /// the expressions are the query renderer's own (built from validated field names).
    func createIndex(name: String, className: String, keys: [IndexKey]) throws {
        let expressions = keys.map(SQLiteQueryRenderer.indexExpression)
        let sqlName = Self.indexName(name, className)
        let classLiteral = SQLPath.classLiteral(className)
        // The expression alone is the key (partial on the class): with exact statistics
        // (Storage.refreshStatistics, run after index changes) the planner takes it for ranges and ORDER BY
        // on the field, while queries on other fields keep scanning the class in rowid order. Leading with
        // `class` would make this index the choice for those too, walking rows in field order (slower).
        try db.execute("CREATE INDEX IF NOT EXISTS \"\(sqlName)\" ON parse_objects(\(expressions.joined(separator: ", ")))"
                       + " WHERE class = \(classLiteral)")
    }

    func dropIndex(name: String, className: String) throws {
        try db.execute("DROP INDEX IF EXISTS \"\(Self.indexName(name, className))\"")
    }

    static func indexName(_ name: String, _ className: String) -> String { "parse_idx_\(className)_\(name)" }
}
