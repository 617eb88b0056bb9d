import Core
import Storage

extension SQLiteBackbeamStore: BackbeamFileStore {
    public func writeFile(_ request: WriteRequest, content: FileContent) throws -> ObjectRecord? {
        guard let blobs else { throw StorageError.blob("the Backbeam store has no blob store") }
        let (record, catalogueChanged) = try storage.writeAndWait { ctx -> (ObjectRecord?, Bool) in
            let db = ctx.db
            var previous: (seq: Int64, blob: String, version: Int)?
            if let id = request.id {
                guard let row = try db.queryOne("""
                    SELECT o.seq, f.blob, f.version FROM bb_objects o JOIN bb_files f ON f.object = o.seq
                    WHERE o.space = ? AND o.id = ? AND o.entity = 'file'
                    """, [.integer(request.space.value), .text(id)]),
                      let seq = row[0].int64, let blob = row[1].string, let version = row[2].int64 else {
                    return (nil, false)
                }
                previous = (seq, blob, Int(version))
            }
            let version = (previous?.version ?? 0) + 1
            var write = request
            write.schema = FileFields.schema(request.schema)
            write.commands = FileFields.commands(request.commands, content: content, version: version,
                                                 replacing: previous != nil)
            var writer = ObjectWriter(db: db, request: write)
            guard let record = previous == nil ? try writer.create() : try writer.update() else { return (nil, false) }
            try blobs.retain(content.blob, in: ctx)
            try db.run("""
                INSERT INTO bb_files (object, space, blob, version, mime, size, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (object) DO UPDATE SET blob = excluded.blob, version = excluded.version, mime = excluded.mime,
                    size = excluded.size, uploaded_at = excluded.uploaded_at
                """, [.integer(record.seq), .integer(request.space.value), .text(content.blob), .integer(Int64(version)),
                      .text(content.mime), .integer(Int64(content.size)), .integer(request.now)])
            if let previous { try blobs.release(previous.blob, in: ctx) }
            return (record, writer.catalogueChanged)
        }
        if catalogueChanged { self.catalogueChanged() }
        return record
    }

    public func fileContent(space: SpaceID, id: String) throws -> StoredFileContent? {
        try storage.readStatement { db in try Self.fileContent(db, space: space, id: id) }
    }

    public func fileContentIfAtHand(space: SpaceID, id: String) throws -> StoredFileContent? {
        let found = try storage.tryReadStatement { db in try Self.fileContent(db, space: space, id: id) }
        return found ?? nil
    }

    private static func fileContent(_ db: Database, space: SpaceID, id: String) throws -> StoredFileContent? {
        guard let row = try db.queryOne("""
            SELECT f.blob, f.version, f.mime, f.size, f.uploaded_at FROM bb_objects o JOIN bb_files f ON f.object = o.seq
            WHERE o.space = ? AND o.id = ? AND o.entity = 'file'
            """, [.integer(space.value), .text(id)]),
              let blob = row[0].string, let version = row[1].int64, let mime = row[2].string,
              let size = row[3].int64, let uploadedAt = row[4].int64 else { return nil }
        return StoredFileContent(blob: blob, version: Int(version), mime: mime, size: Int(size), uploadedAt: uploadedAt)
    }

    /// Inside a deletion's transaction: drops the file row of object `seq`, if it is a file, and releases its
    /// blob (collected once nothing references it, §5.2.7). A store without a blob store holds no files.
    func releaseFile(_ ctx: WriteContext, seq: Int64) throws {
        guard let blobs else { return }
        guard let row = try ctx.db.queryOne("SELECT blob FROM bb_files WHERE object = ?", [.integer(seq)]),
              let blob = row[0].string else { return }
        try ctx.db.run("DELETE FROM bb_files WHERE object = ?", [.integer(seq)])
        try blobs.release(blob, in: ctx)
    }
}

/// The server-managed fields of file objects (§5.3.4), written as commands next to the client's.
enum FileFields {
    /// The fields every file has, with their types (§5.3.4): `file` is a predefined entity, so a strict
    /// schema need not declare them for uploads to work.
    static let predefined: [(String, FieldType)] = [
        ("version", .number), ("filename", .text), ("mime", .text), ("size", .number), ("width", .number),
        ("height", .number), ("title", .text), ("description", .textarea),
    ]

    /// `schema` with the predefined fields of `file` added where it does not declare them; nil stays nil.
    static func schema(_ schema: ProjectSchema?) -> ProjectSchema? {
        guard var schema else { return nil }
        var entity = schema.entities["file"] ?? EntitySchema()
        for (field, type) in predefined where entity.fields[field] == nil {
            entity.fields[field] = SchemaField(type: type)
        }
        schema.entities["file"] = entity
        return schema
    }

    /// `commands` with `version`, `filename`, `mime`, `size` and `width`/`height` set from `content` (cleared
    /// on a new version whose content has no readable image header). Each carries its type as a suffix, so a
    /// file's fields have their types from the first upload on.
    static func commands(_ commands: CommandSet, content: FileContent, version: Int, replacing: Bool) -> CommandSet {
        var out = commands
        func set(_ field: String, _ type: FieldType, _ value: String?) {
            out.fields.removeAll { $0.field == field }
            var c = FieldCommands(field: field, suffix: type)
            if let value {
                c.set = value
            } else if replacing {
                c.del = true
            } else {
                return
            }
            out.fields.append(c)
        }
        set("version", .number, String(version))
        set("filename", .text, content.filename)
        set("mime", .text, content.mime)
        set("size", .number, String(content.size))
        set("width", .number, content.width.map(String.init))
        set("height", .number, content.height.map(String.init))
        return out
    }
}
