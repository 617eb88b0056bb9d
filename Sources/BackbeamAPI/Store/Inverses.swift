import Storage

/// Keeps both sides of a schema-declared inverse relationship in step (§4.5), in the same transaction as
/// the write that changed one side: `country.cities` (to-many, `inverse: country`) mirrors `city.country`
/// (to-one), and a to-many field whose inverse is a to-many field mirrors it link for link. Without a
/// schema no field has an inverse.
enum Inverses {
    /// `member` was linked to `owner.field` (to-many).
    static func linked(_ w: inout ObjectWriter, owner: Int64, field: FieldInfo, member: Int64) throws {
        guard let inverse = try mirror(&w, owner: owner, toMany: field) else { return }
        if inverse.many {
            try w.link(owner: member, field: inverse, member: owner, mirror: false)
        } else {
            // One-to-many: the member leaves its previous owner's list, then points at the new owner.
            if let previous = try target(w.db, owner: member, field: inverse.id), previous != owner {
                try w.unlink(owner: previous, field: field, member: member, mirror: false)
            }
            try w.setToOne(owner: member, field: inverse, target: owner, mirror: false)
        }
    }

    /// `member` was unlinked from `owner.field` (to-many).
    static func unlinked(_ w: inout ObjectWriter, owner: Int64, field: FieldInfo, member: Int64) throws {
        guard let inverse = try mirror(&w, owner: owner, toMany: field) else { return }
        if inverse.many {
            try w.unlink(owner: member, field: inverse, member: owner, mirror: false)
        } else if try target(w.db, owner: member, field: inverse.id) == owner {
            try w.clearToOne(owner: member, field: inverse, mirror: false)
        }
    }

    /// `owner.field` (to-one) changed from `previous` to `new`: the to-many field that declares it as its
    /// inverse loses `owner` from the previous target's list and gains it in the new one's.
    static func toOneChanged(_ w: inout ObjectWriter, owner: Int64, field: FieldInfo, from previous: Int64?,
                             to new: Int64?) throws {
        guard let schema = w.request.schema, let ownerEntity = try entity(w.db, seq: owner),
              let (listEntity, listField) = schema.inverseOwner(ofToOne: field.name, in: ownerEntity),
              let declared = schema.field(listField, of: listEntity) else { return }
        let resolved = ResolvedFieldType(type: .reference, many: true, requiredTarget: declared.target)
        let list = try catalogueEntry(&w, entity: listEntity, name: listField, resolved: resolved, target: ownerEntity)
        if let previous { try w.unlink(owner: previous, field: list, member: owner, mirror: false) }
        if let new { try w.link(owner: new, field: list, member: owner, mirror: false) }
    }

    /// The inverse of a to-many field, when the schema declares one.
    private static func mirror(_ w: inout ObjectWriter, owner: Int64, toMany field: FieldInfo) throws -> FieldInfo? {
        guard let schema = w.request.schema, let ownerEntity = try entity(w.db, seq: owner),
              let declared = schema.field(field.name, of: ownerEntity), let inverseName = declared.inverse,
              let memberEntity = declared.target, let inverseDeclared = schema.field(inverseName, of: memberEntity),
              inverseDeclared.type == .reference else { return nil }
        let resolved = ResolvedFieldType(type: .reference, many: inverseDeclared.many, requiredTarget: inverseDeclared.target)
        let inverse = try catalogueEntry(&w, entity: memberEntity, name: inverseName, resolved: resolved, target: ownerEntity)
        return inverse
    }

    private static func catalogueEntry(_ w: inout ObjectWriter, entity: String, name: String,
                                       resolved: ResolvedFieldType, target: String) throws -> FieldInfo {
        if entity == w.entity { return try w.ensureField(name, resolved, target: target) }
        var table = try w.otherFields[entity] ?? w.loadFields(entity)
        let info = try w.ensureField(name, in: entity, fields: &table, resolved, target: target)
        w.otherFields[entity] = table
        return info
    }

    private static func entity(_ db: Database, seq: Int64) throws -> String? {
        try db.queryOne("SELECT entity FROM bb_objects WHERE seq = ?", [.integer(seq)])?[0].string
    }

    private static func target(_ db: Database, owner: Int64, field: Int64) throws -> Int64? {
        try db.queryOne("SELECT target FROM bb_refs WHERE owner = ? AND field = ?", [.integer(owner), .integer(field)])?[0].int64
    }
}
