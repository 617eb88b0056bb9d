import Core
import Storage

/// Applies the commands of one request to one object inside a write job (§4.6): resolves each field's type
/// (§4.3), validates every value, maintains the catalogue, references, links, full-text and geo rows, and
/// re-renders the object's stored response members. Any error rolls the whole job back, so a request is
/// applied entirely or not at all.
struct ObjectWriter {
    let db: Database
    let request: WriteRequest
    /// The entity's catalogue as this transaction sees it.
    var fields: [String: FieldInfo] = [:]
    /// Other entities' catalogues read for inverse relationships.
    var otherFields: [String: [String: FieldInfo]] = [:]
    /// True once a catalogue row was added or changed (cached catalogues must be read again).
    var catalogueChanged = false

    var seq: Int64 = 0
    var id: String = ""
    var createdAt: Int64 = 0
    var updatedAt: Int64 = 0
    var data = JSONObject()
    /// Something changed (updated_at moves on an update only then).
    var changed = false
    /// Full-text and geo rows to refresh, by field id.
    var reindexText: Set<Int64> = []
    var reindexGeo: Set<Int64> = []
    /// Objects (other than this one) whose to-one references changed through an inverse.
    var otherRefOwners: Set<Int64> = []

    init(db: Database, request: WriteRequest) {
        self.db = db
        self.request = request
    }

    var space: SpaceID { request.space }
    var entity: String { request.entity }

    // MARK: - Create and update

    /// Creates the object; returns it as stored.
    mutating func create() throws -> ObjectRecord {
        try registerEntity()
        fields = try loadFields(entity)
        id = try newObjectID()
        createdAt = request.now
        updatedAt = request.now
        try db.run("INSERT INTO bb_objects (space, id, entity, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                   [.integer(space.value), .text(id), .text(entity), .integer(createdAt), .integer(updatedAt)])
        seq = db.lastInsertRowID
        try applyAll()
        return try finish(isNew: true)
    }

    /// Updates the object `request.id`; nil when no object of the entity has that id.
    mutating func update() throws -> ObjectRecord? {
        guard let objectID = request.id,
              let row = try db.queryOne("""
                  SELECT seq, created_at, updated_at, data FROM bb_objects WHERE space = ? AND id = ? AND entity = ?
                  """, [.integer(space.value), .text(objectID), .text(entity)]) else { return nil }
        seq = row[0].int64 ?? 0
        id = objectID
        createdAt = row[1].int64 ?? 0
        updatedAt = row[2].int64 ?? 0
        data = (try? JSONParser.parse(row[3].string ?? "{}"))?.objectValue ?? JSONObject()
        fields = try loadFields(entity)
        try applyAll()
        if changed { updatedAt = max(request.now, updatedAt &+ 1) }
        return try finish(isNew: false)
    }

    private mutating func applyAll() throws {
        for commands in request.commands.fields { try apply(commands) }
        try applyCredentials()
        try UserGrants.apply(request.grant, db: db, space: space, object: seq, now: request.now)
    }

    /// Writes the row (data, rendered members, time) and the side rows; returns the stored object.
    private mutating func finish(isNew: Bool) throws -> ObjectRecord {
        for fieldID in reindexText {
            let info = fields.values.first { $0.id == fieldID }
            let body = data["f\(fieldID)"].flatMap { value in info?.type.flatMap { FullTextSQL.body(of: value, type: $0) } }
            try FullTextSQL.reindex(db, object: seq, fieldID: fieldID, body: body)
        }
        for fieldID in reindexGeo {
            try GeoSQL.reindex(db, object: seq, fieldID: fieldID, value: data["f\(fieldID)"])
        }
        let vals = StoredMembers.values(data, fields: fields)
        let refs = try StoredMembers.references(db, owner: seq)
        try db.run("UPDATE bb_objects SET updated_at = ?, data = ?, vals = ?, refs = ? WHERE seq = ?",
                   [.integer(updatedAt), .text(JSON.object(data).serialized()), .blobText(vals), .blobText(refs),
                    .integer(seq)])
        for owner in otherRefOwners where owner != seq {
            try db.run("UPDATE bb_objects SET refs = ? WHERE seq = ?",
                       [.blobText(try StoredMembers.references(db, owner: owner)), .integer(owner)])
        }
        let login = try db.queryOne("SELECT login FROM bb_objects WHERE seq = ?", [.integer(seq)])?[0].string ?? ""
        return ObjectRecord(seq: seq, id: id, entity: entity, createdAt: createdAt, updatedAt: updatedAt,
                            vals: vals, refs: refs, login: Array(login.utf8))
    }

    // MARK: - One field

    private mutating func apply(_ commands: FieldCommands) throws {
        let name = commands.field
        let declared = request.schema?.field(name, of: entity)
        if request.schema?.strict == true, declared == nil {
            throw BackbeamError(.invalidParameters, "The field '\(name)' is not declared in the schema")
        }
        let catalogued = fields[name]
        guard let resolved = try FieldTyping.resolve(commands, schema: declared, catalogued: catalogued,
                                                     entityOfObject: { try self.lookup($0)?.entity }) else { return }
        try checkVerbs(commands, resolved)
        if resolved.type == .reference {
            try applyReference(commands, resolved, catalogued: catalogued, declared: declared)
        } else {
            let info = try ensureField(name, resolved, target: nil)
            try applyValue(commands, info: info, type: resolved.type, options: declared?.options ?? [])
        }
    }

    /// Commands that do not fit the field's kind (§4.6 errors).
    private func checkVerbs(_ c: FieldCommands, _ resolved: ResolvedFieldType) throws {
        let name = c.field
        if resolved.type == .reference && resolved.many {
            if c.set != nil || c.incr != nil || c.del {
                throw BackbeamError(.invalidParameters, "'\(name)' is a to-many relationship: use add- and rem-")
            }
        } else if resolved.type == .reference {
            if !c.add.isEmpty || !c.rem.isEmpty || c.incr != nil {
                throw BackbeamError(.invalidParameters, "'\(name)' is a to-one relationship: use set- and del-")
            }
        } else {
            if !c.add.isEmpty || !c.rem.isEmpty {
                throw BackbeamError(.invalidParameters, "'\(name)' is not a to-many relationship")
            }
            if c.incr != nil && resolved.type != .number {
                throw BackbeamError(.invalidParameters, "'\(name)' is not a number field")
            }
        }
    }

    private mutating func applyValue(_ c: FieldCommands, info: FieldInfo, type: FieldType, options: [String]) throws {
        let key = "f\(info.id)"
        let before = data[key]
        if let text = c.set {
            data[key] = try FieldTyping.storedValue(text, type: type, field: c.field, options: options,
                                                    parsedJSON: c.setJSON)
        }
        if let step = c.incr {
            let n = try FieldTyping.increment(step, field: c.field)
            let current = data[key]?.doubleValue ?? 0
            guard let sum = JSONNumber(current + n) else {
                throw BackbeamError(.invalidParameters, "The increment of '\(c.field)' overflows")
            }
            data[key] = .number(sum)
        }
        if c.del { data.removeValue(forKey: key) }
        if data[key] != before {
            changed = true
            if type.isText { reindexText.insert(info.id) }
            if type == .location { reindexGeo.insert(info.id) }
        }
    }

    // MARK: - References

    private mutating func applyReference(_ c: FieldCommands, _ resolved: ResolvedFieldType, catalogued: FieldInfo?,
                                         declared: SchemaField?) throws {
        let requiredTarget = resolved.requiredTarget
        if !resolved.many {
            var target: (seq: Int64, entity: String)?
            if let text = c.set { target = try referenced(text, field: c.field, requiredTarget: requiredTarget) }
            let info = try ensureField(c.field, resolved, target: catalogued?.target ?? requiredTarget ?? target?.entity)
            if let target {
                try setToOne(owner: seq, field: info, target: target.seq)
            }
            if c.del { try clearToOne(owner: seq, field: info) }
            return
        }
        var additions: [(seq: Int64, entity: String)] = []
        for text in c.add { additions.append(try referenced(text, field: c.field, requiredTarget: requiredTarget)) }
        var removals: [Int64] = []
        for text in c.rem {
            guard let id = Identifiers.objectID(fromReference: text) else {
                throw BackbeamError(.invalidParameters, "'\(c.field)' was given something that is not an object id")
            }
            // Unlinking an object that is not linked (or does not exist) is a no-op.
            if let found = try lookup(id) { removals.append(found.seq) }
        }
        if catalogued?.type == nil, additions.isEmpty, declared == nil { return }
        let info = try ensureField(c.field, resolved, target: catalogued?.target ?? requiredTarget ?? additions.first?.entity)
        for member in additions { try link(owner: seq, field: info, member: member.seq) }
        for member in removals { try unlink(owner: seq, field: info, member: member) }
    }

    /// The existing object a reference value names (`<entity>/<id>` or a bare id), of the required entity.
    private func referenced(_ text: String, field: String, requiredTarget: String?) throws -> (seq: Int64, entity: String) {
        guard let id = Identifiers.objectID(fromReference: text) else {
            throw BackbeamError(.invalidParameters, "'\(field)' was given something that is not an object id")
        }
        guard let found = try lookup(id) else {
            throw BackbeamError(.invalidParameters, "'\(field)' references an object that does not exist")
        }
        if let requiredTarget, found.entity != requiredTarget {
            throw BackbeamError(.invalidParameters, "'\(field)' must reference a \(requiredTarget) object")
        }
        return found
    }

    mutating func setToOne(owner: Int64, field: FieldInfo, target: Int64, mirror: Bool = true) throws {
        let previous = try db.queryOne("SELECT target FROM bb_refs WHERE owner = ? AND field = ?",
                                       [.integer(owner), .integer(field.id)])?[0].int64
        guard previous != target else { return }
        try db.run("""
            INSERT INTO bb_refs (owner, field, target) VALUES (?, ?, ?)
            ON CONFLICT (owner, field) DO UPDATE SET target = excluded.target
            """, [.integer(owner), .integer(field.id), .integer(target)])
        noteChange(owner)
        if mirror { try Inverses.toOneChanged(&self, owner: owner, field: field, from: previous, to: target) }
    }

    mutating func clearToOne(owner: Int64, field: FieldInfo, mirror: Bool = true) throws {
        let previous = try db.queryOne("SELECT target FROM bb_refs WHERE owner = ? AND field = ?",
                                       [.integer(owner), .integer(field.id)])?[0].int64
        guard let previous else { return }
        try db.run("DELETE FROM bb_refs WHERE owner = ? AND field = ?", [.integer(owner), .integer(field.id)])
        noteChange(owner)
        if mirror { try Inverses.toOneChanged(&self, owner: owner, field: field, from: previous, to: nil) }
    }

    /// Links `member`; linking an object already linked keeps its original time (§4.5).
    mutating func link(owner: Int64, field: FieldInfo, member: Int64, mirror: Bool = true) throws {
        try db.run("INSERT OR IGNORE INTO bb_links (owner, field, member, linked_at) VALUES (?, ?, ?, ?)",
                   [.integer(owner), .integer(field.id), .integer(member), .integer(request.now)])
        guard db.changes > 0 else { return }
        if owner == seq { changed = true }
        if mirror { try Inverses.linked(&self, owner: owner, field: field, member: member) }
    }

    mutating func unlink(owner: Int64, field: FieldInfo, member: Int64, mirror: Bool = true) throws {
        try db.run("DELETE FROM bb_links WHERE owner = ? AND field = ? AND member = ?",
                   [.integer(owner), .integer(field.id), .integer(member)])
        guard db.changes > 0 else { return }
        if owner == seq { changed = true }
        if mirror { try Inverses.unlinked(&self, owner: owner, field: field, member: member) }
    }

    private mutating func noteChange(_ owner: Int64) {
        if owner == seq { changed = true } else { otherRefOwners.insert(owner) }
    }

    // MARK: - Credentials

    /// The login email and password hash of a user (§4.6 user specials); the email is also the text field
    /// `email`, so it is answered as `email#t` and can be queried.
    private mutating func applyCredentials() throws {
        let credentials = request.credentials
        guard !credentials.isEmpty else { return }
        try db.run("INSERT OR IGNORE INTO bb_users (object, space) VALUES (?, ?)", [.integer(seq), .integer(space.value)])
        switch credentials.email {
        case .set(let email)?:
            do {
                // A new address is unverified until its holder proves access to the mailbox.
                let folded = EmailAddress.folded(email)
                try db.run("""
                    UPDATE bb_users SET email = ?, email_folded = ?,
                        email_verified = CASE WHEN email_folded IS ? THEN email_verified ELSE 0 END
                    WHERE object = ?
                    """, [.text(email), .text(folded), .text(folded), .integer(seq)])
            } catch StorageError.constraint {
                throw BackbeamError(.userAlreadyExists, "A user with that email already exists")
            }
            var command = FieldCommands(field: "email")
            command.set = email
            try apply(command)
        case .delete?:
            try db.run("UPDATE bb_users SET email = NULL, email_folded = NULL WHERE object = ?", [.integer(seq)])
            var command = FieldCommands(field: "email")
            command.del = true
            try apply(command)
        case nil:
            break
        }
        switch credentials.passwordHash {
        case .set(let hash)?:
            try db.run("UPDATE bb_users SET password_hash = ? WHERE object = ?", [.text(hash), .integer(seq)])
            changed = true
        case .delete?:
            try db.run("UPDATE bb_users SET password_hash = NULL WHERE object = ?", [.integer(seq)])
            changed = true
        case nil:
            break
        }
    }

    // MARK: - Catalogue

    /// Counts the entity in, refusing a new one beyond the limit (§4.3).
    private func registerEntity() throws {
        try db.run("INSERT OR IGNORE INTO bb_entities (space, entity) VALUES (?, ?)", [.integer(space.value), .text(entity)])
        guard db.changes > 0 else { return }
        let count = try db.queryOne("SELECT count(*) FROM bb_entities WHERE space = ?", [.integer(space.value)])?[0].int64 ?? 0
        if count > Int64(request.limits.maxEntities) {
            throw BackbeamError(.invalidParameters, "This environment already has \(request.limits.maxEntities) entities")
        }
    }

    func loadFields(_ entity: String) throws -> [String: FieldInfo] {
        var out: [String: FieldInfo] = [:]
        for row in try db.query("SELECT id, name, type, many, target FROM bb_fields WHERE space = ? AND entity = ?",
                                [.integer(space.value), .text(entity)]) {
            guard let id = row[0].int64, let name = row[1].string else { continue }
            out[name] = FieldInfo(id: id, name: name, type: row[2].string.flatMap(FieldType.init(rawValue:)),
                                  many: row[3].bool ?? false, target: row[4].string)
        }
        return out
    }

    /// The catalogue entry of a field of this entity with `resolved`'s type, created (within the field
    /// limit) or completed (a field declared for an index before any value) as needed.
    mutating func ensureField(_ name: String, _ resolved: ResolvedFieldType, target: String?) throws -> FieldInfo {
        var table = fields
        let info = try ensureField(name, in: entity, fields: &table, resolved, target: target)
        fields = table
        return info
    }

    /// The same for any entity's field (inverse relationships live on the target entity).
    mutating func ensureField(_ name: String, in owner: String, fields table: inout [String: FieldInfo],
                              _ resolved: ResolvedFieldType, target: String?) throws -> FieldInfo {
        let many = resolved.type == .reference && resolved.many
        if var existing = table[name] {
            if existing.type == resolved.type && existing.many == many && (existing.target != nil || target == nil) {
                return existing
            }
            existing.type = resolved.type
            existing.many = many
            existing.target = existing.target ?? target
            try db.run("UPDATE bb_fields SET type = ?, many = ?, target = ? WHERE id = ?",
                       [.text(resolved.type.rawValue), .integer(many ? 1 : 0), existing.target.map(SQLValue.text) ?? .null,
                        .integer(existing.id)])
            table[name] = existing
            catalogueChanged = true
            return existing
        }
        guard table.count < request.limits.maxFieldsPerEntity else {
            throw BackbeamError(.invalidParameters, "The entity '\(owner)' already has \(request.limits.maxFieldsPerEntity) fields")
        }
        try db.run("INSERT INTO bb_fields (space, entity, name, type, many, target) VALUES (?, ?, ?, ?, ?, ?)",
                   [.integer(space.value), .text(owner), .text(name), .text(resolved.type.rawValue),
                    .integer(many ? 1 : 0), target.map(SQLValue.text) ?? .null])
        let info = FieldInfo(id: db.lastInsertRowID, name: name, type: resolved.type, many: many, target: target)
        table[name] = info
        catalogueChanged = true
        return info
    }

    // MARK: - Objects

    /// The internal key and entity of the object `id` of this environment.
    func lookup(_ id: String) throws -> (seq: Int64, entity: String)? {
        guard let row = try db.queryOne("SELECT seq, entity FROM bb_objects WHERE space = ? AND id = ?",
                                        [.integer(space.value), .text(id)]),
              let seq = row[0].int64, let entity = row[1].string else { return nil }
        return (seq, entity)
    }

    /// A new 12-character id (§4.1), unique in the environment.
    private func newObjectID() throws -> String {
        while true {
            let candidate = RandomID.alphanumeric(12)
            if try lookup(candidate) == nil { return candidate }
        }
    }
}

extension SQLValue {
    /// Rendered member bytes stored as TEXT (they are UTF-8 JSON).
    static func blobText(_ bytes: [UInt8]) -> SQLValue { .text(String(decoding: bytes, as: UTF8.self)) }
}
