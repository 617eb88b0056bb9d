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

    func create(_ className: String, _ w: WriteRequest, acl: JSONObject?? = nil) throws -> Result {
        try WriteLimits.check(w, config)
        let existing = try Schemas.load(className, tx)
        try Schemas.requireReachable(existing, className: className, caller: caller, config: config)
        _ = try CLP.check("create", className: className, schema: existing, caller: caller)
        let (schema, changed) = try Schemas.apply(w.impliedTypes.filter { !$0.field.hasPrefix("_") }, to: existing,
                                                  className: className, caller: caller, config: config, tx: tx)
        var data = JSONObject()
        var echo = JSONObject()
        for (path, op) in w.operations where !op.isRelation {
            let value = try op.apply(to: nil, creating: true)
            data[path[0]] = value
            if op.echoed(onCreate: true) { echo[path[0]] = value ?? .null }
        }
        for (name, def) in schema.fields {
            if let d = def.defaultValue, data[name] == nil || data[name] == .null {
                data[name] = d
                echo[name] = d
            }
            if def.required, data[name] == nil || data[name] == .null {
                throw ParseError(142, "\(name) is required")
            }
        }
        let now = ParseDate.now()
        var object = StoredObject(className: className, objectId: w.customObjectId ?? RandomID.alphanumeric(10),
                                  data: data, acl: acl ?? (w.aclGiven ? w.acl : nil), createdAt: now, updatedAt: now)
        let serialized = try checkedData(object)
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

    /// Loads an object the caller may write (404 101 otherwise).
    func loadWritable(_ className: String, _ objectId: String, op: String) throws -> (StoredObject, ClassSchema?) {
        guard FieldNames.isPlausibleObjectId(objectId), let object = try tx.object(className, objectId) else {
            throw ParseError.objectNotFound
        }
        let schema = try Schemas.load(className, tx)
        let outcome = try CLP.check(op, className: className, schema: schema, caller: caller)
        if case .pointerRestricted(let fields) = outcome, !CLP.objectMatches(fields, userId: caller.userId, object) {
            throw ParseError.objectNotFound
        }
        if !caller.isMaster && !ACLPermissions.allows(object.acl, "write", group: caller.aclGroup) {
            throw ParseError.objectNotFound
        }
        return (object, schema)
    }

    func update(_ className: String, _ objectId: String, _ w: WriteRequest, loaded: (StoredObject, ClassSchema?)? = nil)
        throws -> Result {
        try WriteLimits.check(w, config)
        var (object, existing) = try loaded ?? loadWritable(className, objectId, op: "update")
        let (schema, changed) = try Schemas.apply(w.impliedTypes.filter { !$0.field.hasPrefix("_") }, to: existing,
                                                  className: className, caller: caller, config: config, tx: tx)
        let echo = try UpdatePaths(w.operations).apply(to: &object.data, schema: schema)
        if w.aclGiven { object.acl = w.acl }
        let now = ParseDate.now()
        // updatedAt never goes backwards on a clock step (spec §20).
        object.updatedAt = max(now, object.updatedAt)
        let serialized = try checkedData(object)
        try tx.update(object, serializedData: serialized)
        try tx.syncText(className, object.objectId, object.data)
        try applyRelations(w, owner: object)
        if changed { try tx.saveSchema(schema) }
        return Result(object: object, echo: echo, created: false)
    }

    func delete(_ className: String, _ objectId: String) throws -> StoredObject {
        let (object, _) = try loadWritable(className, objectId, op: "delete")
        try tx.syncText(className, objectId, nil)
        try tx.delete(className, objectId)
        try tx.deleteRelations(ownerClass: className, ownerId: objectId)
        try tx.deleteMemberships(memberClass: className, memberId: objectId)
        return object
    }

    /// The object's data as stored, once its size is known to be within the limit (serialized once, for
    /// both the check and the row).
    private func checkedData(_ o: StoredObject) throws -> String {
        let text = JSON.object(o.data).serialized()
        if text.utf8.count > Self.maxObjectBytes {
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
