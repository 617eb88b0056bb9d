import Core

/// Creates, updates and deletes objects inside one write transaction: schema locking, CLP, ACL,
/// operations on the stored values, relation rows (spec §6).
struct ObjectWriter {
    let tx: any ParseTransaction
    let caller: Caller
    let config: ParseConfig

    /// What a write produced: the stored object and the op-result echo of spec §6.6.
    struct Result: Sendable {
        var object: StoredObject
        var echo: JSONObject
        var created: Bool
    }

    static let maxObjectBytes = 16 << 20

    /// Creates an object. `prepared` (made for the class schema of the moment, see `PreparedWrites`) carries
    /// the object's data already computed and serialized; when the schema's defaults or required fields have
    /// changed since, the job refuses it with `StalePreparation`, or computes the object itself when
    /// `staleFallsBack` (inside a transactional batch, which cannot be queued again).
    func create(_ className: String, _ w: WriteRequest, acl: JSONObject?? = nil, prepared: PreparedCreate? = nil,
                staleFallsBack: Bool = false) throws -> Result {
        // What depends on the write alone was computed with the preparation, on the request's worker.
        if let prepared {
            if let refusal = prepared.limitError { throw refusal }
        } else {
            try WriteLimits.check(w, config)
        }
        let existing = try Schemas.load(className, tx)
        try Schemas.requireReachable(existing, className: className, caller: caller, config: config)
        _ = try CLP.check("create", className: className, schema: existing, caller: caller)
        let (schema, changed) = try Schemas.apply(prepared?.schemaTypes ?? w.schemaTypes, typesFiltered: true,
                                                  to: existing, className: className, caller: caller, config: config,
                                                  tx: tx)
        var data = JSONObject()
        var echo = JSONObject()
        let serialized: String
        // Compared once: the comparison walks every field of the schema.
        let current = prepared?.isCurrent(for: existing) ?? false
        if prepared != nil, !current, !staleFallsBack { throw StalePreparation() }
        if let prepared, current {
            let computed = try prepared.outcome.get()
            data = computed.data
            echo = computed.echo
            serialized = computed.text
        } else {
            for (path, op) in w.operations where !op.isRelation {
                let value = try op.apply(to: nil, creating: true)
                data[path[0]] = value
                if op.echoed(onCreate: true) { echo[path[0]] = value ?? .null }
            }
            try Self.applyDefaults(schema.fields, to: &data, echo: &echo)
            serialized = try Self.serialized(data)
        }
        let now = ParseDate.now()
        var object = StoredObject(className: className, objectId: w.customObjectId ?? RandomID.alphanumeric(10),
                                  data: data, acl: acl ?? (w.aclGiven ? w.acl : nil), createdAt: now, updatedAt: now)
        var attempts = 0
        while true {
            do {
                try tx.insert(object, serializedData: serialized)
                break
            } catch StoreConflict.objectId where w.customObjectId == nil && attempts < 5 {
                // A generated id collided; draw again (spec §4.2).
                attempts += 1
                object.objectId = RandomID.alphanumeric(10)
            } catch StoreConflict.objectId {
                throw ParseError(137, "A duplicate value for a field with unique values was provided")
            }
        }
        try applyRelations(w, owner: object)
        try tx.syncText(className, object.objectId, object.data)
        if changed { try tx.saveSchema(schema) }
        return Result(object: object, echo: echo, created: true)
    }

    /// Fills the fields that have a schema default and no value (or null), echoing them; refuses a missing
    /// required field (spec §5.5).
    static func applyDefaults(_ fields: [(name: String, field: FieldDefinition)], to data: inout JSONObject,
                              echo: inout JSONObject) throws {
        for (name, def) in fields {
            if let d = def.defaultValue, data[name] == nil || data[name] == .null {
                data[name] = d
                echo[name] = d
            }
            if def.required, data[name] == nil || data[name] == .null {
                throw ParseError(142, "\(name) is required")
            }
        }
    }

    /// Loads an object the caller may write (404 101 otherwise). With `prepared`, the stored row must still
    /// be the one it was prepared from (`StalePreparation` otherwise), and its decoding is reused. The data is
    /// decoded only once the caller is known to be allowed (before, only when a pointer permission needs it),
    /// so a refused caller cannot make the writer decode a large object.
    func loadWritable(_ className: String, _ objectId: String, op: String, prepared: PreparedUpdate? = nil)
        throws -> (StoredObject, ClassSchema?) {
        guard FieldNames.isPlausibleObjectId(objectId) else { throw ParseError.objectNotFound }
        let row: StoredText
        if let prepared {
            guard let found = try tx.storedObject(className, objectId, comparingData: prepared.base.data) else {
                throw ParseError.objectNotFound
            }
            guard prepared.matches(found.row, dataMatches: found.dataMatches) else { throw StalePreparation() }
            row = found.row
        } else {
            guard let found = try tx.storedObject(className, objectId) else { throw ParseError.objectNotFound }
            row = found
        }
        var decoded: StoredObject?
        func full() throws -> StoredObject {
            if let decoded { return decoded }
            let object = try prepared?.object ?? row.decoded()
            decoded = object
            return object
        }
        let schema = try Schemas.load(className, tx)
        let outcome = try CLP.check(op, className: className, schema: schema, caller: caller)
        if case .pointerRestricted(let fields) = outcome, !CLP.objectMatches(fields, userId: caller.userId, try full()) {
            throw ParseError.objectNotFound
        }
        if !caller.isMaster && !ACLPermissions.allows(row.decodedACL(), "write", group: caller.aclGroup) {
            throw ParseError.objectNotFound
        }
        return (try full(), schema)
    }

    /// Updates an object. `prepared` (made from the stored row, see `PreparedWrites`) carries the data after
    /// the operations, already serialized; the job refuses it with `StalePreparation` when the row changed.
    func update(_ className: String, _ objectId: String, _ w: WriteRequest, loaded: (StoredObject, ClassSchema?)? = nil,
                prepared: PreparedUpdate? = nil) throws -> Result {
        try WriteLimits.check(w, config)
        let usePrepared = loaded == nil ? prepared : nil
        var (object, existing) = try loaded ?? loadWritable(className, objectId, op: "update", prepared: usePrepared)
        let (schema, changed) = try Schemas.apply(w.impliedTypes.filter { !$0.field.hasPrefix("_") }, to: existing,
                                                  className: className, caller: caller, config: config, tx: tx)
        let echo: JSONObject
        var serialized: String?
        if let usePrepared {
            let computed = try usePrepared.outcome.get()
            object.data = computed.data
            echo = computed.echo
            try UpdatePaths.checkRequired(w.operations, in: object.data, schema: schema)
            serialized = computed.text
        } else {
            echo = try UpdatePaths(w.operations).apply(to: &object.data, schema: schema)
        }
        if w.aclGiven { object.acl = w.acl }
        let now = ParseDate.now()
        // updatedAt never goes backwards on a clock step (spec §20).
        object.updatedAt = max(now, object.updatedAt)
        try tx.update(object, serializedData: serialized ?? Self.serialized(object.data))
        try tx.syncText(className, object.objectId, object.data)
        try applyRelations(w, owner: object)
        if changed { try tx.saveSchema(schema) }
        return Result(object: object, echo: echo, created: false)
    }

    /// Deletes an object. Its data is decoded only when a pointer permission needs it (see `loadWritable`).
    func delete(_ className: String, _ objectId: String) throws -> StoredObject {
        guard FieldNames.isPlausibleObjectId(objectId), let row = try tx.storedObject(className, objectId) else {
            throw ParseError.objectNotFound
        }
        let schema = try Schemas.load(className, tx)
        var object = StoredObject(className: className, objectId: objectId, data: JSONObject(),
                                  acl: row.decodedACL(), createdAt: row.createdAt, updatedAt: row.updatedAt)
        let outcome = try CLP.check("delete", className: className, schema: schema, caller: caller)
        if case .pointerRestricted(let fields) = outcome {
            object = try row.decoded()
            if !CLP.objectMatches(fields, userId: caller.userId, object) { throw ParseError.objectNotFound }
        }
        if !caller.isMaster && !ACLPermissions.allows(object.acl, "write", group: caller.aclGroup) {
            throw ParseError.objectNotFound
        }
        try tx.syncText(className, objectId, nil)
        try tx.delete(className, objectId)
        try tx.deleteRelations(ownerClass: className, ownerId: objectId)
        try tx.deleteMemberships(memberClass: className, memberId: objectId)
        return object
    }

    /// An object's data as stored, once its size is known to be within the limit (serialized once, for both
    /// the check and the row).
    static func serialized(_ data: JSONObject) throws -> String {
        let text = JSON.object(data).serialized()
        if text.utf8.count > maxObjectBytes {
            throw ParseError(116, "Object is too large.")
        }
        return text
    }

    private func applyRelations(_ w: WriteRequest, owner: StoredObject) throws {
        for (path, op) in w.operations where op.isRelation {
            try applyRelation(op, field: path[0], owner: owner)
        }
    }

    private func applyRelation(_ op: FieldOperation, field: String, owner: StoredObject) throws {
        switch op {
        case .addRelation(let cls, let ids):
            try tx.addRelation(ownerClass: owner.className, field: field, ownerId: owner.objectId, memberClass: cls,
                               memberIds: ids)
        case .removeRelation(_, let ids):
            try tx.removeRelation(ownerClass: owner.className, field: field, ownerId: owner.objectId, memberIds: ids)
        case .relationBatch(let ops):
            for o in ops { try applyRelation(o, field: field, owner: owner) }
        default:
            break
        }
    }
}
