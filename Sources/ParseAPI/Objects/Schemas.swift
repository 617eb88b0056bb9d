import Core

/// Loading class schemas and applying the type-locking rules of spec §4.8.
enum Schemas {
    /// The stored schema, or for the system classes (which always exist) their built-in fields.
    static func load(_ className: String, _ tx: any ParseTransaction) throws -> ClassSchema? {
        if let s = try tx.schema(className) { return s }
        guard FieldNames.systemClasses.contains(className) else { return nil }
        var s = ClassSchema(className: className)
        for (name, type) in FieldNames.builtinFields(className) { s.setField(name, FieldDefinition(type: type)) }
        return s
    }

    static func mismatch(_ className: String, _ field: String, expected: FieldType, got: FieldType) -> ParseError {
        ParseError(111, "schema mismatch for \(className).\(field); expected \(expected.displayName) but got \(got.displayName)")
    }

    /// Refuses a class without a schema to clients when `allowClientClassCreation` is off (spec 119).
    static func requireReachable(_ schema: ClassSchema?, className: String, caller: Caller, config: ParseConfig) throws {
        if schema == nil && !config.allowClientClassCreation && !caller.isMaster {
            throw ParseError(119, "This user is not allowed to access non-existent class: \(className)")
        }
    }

    /// Checks the implied types of a write against the schema and adds new fields, within the limits of
    /// fields per class and schema changes per request (`WriteLimits`).
    /// Returns the (possibly extended) schema and whether it changed.
    /// `typesFiltered`: `types` already has no default field (`WriteRequest.schemaTypes`).
    static func apply(_ types: [(field: String, type: FieldType)], typesFiltered: Bool = false, to existing: ClassSchema?,
                      className: String, caller: Caller, config: ParseConfig,
                      tx: any ParseTransaction) throws -> (ClassSchema, Bool) {
        try requireReachable(existing, className: className, caller: caller, config: config)
        var schema = existing ?? ClassSchema(className: className, clp: nil)
        var changed = existing == nil
        var added = 0
        for (field, type) in types {
            if !typesFiltered, FieldNames.defaultFields.contains(field) { continue }
            if let def = schema.field(field) {
                if def.type != type { throw mismatch(className, field, expected: def.type, got: type) }
            } else {
                if type == .geoPoint, let other = schema.fields.first(where: { $0.field.type == .geoPoint }), other.name != field {
                    throw ParseError(111, "there can only be one geopoint field in a class")
                }
                schema.setField(field, FieldDefinition(type: type))
                added += 1
                changed = true
            }
        }
        if added > 0, existing != nil {
            _ = try CLP.check("addField", className: className, schema: existing, caller: caller)
        }
        try WriteLimits.checkClass(schema, added: added, config)
        try WriteLimits.countSchemaChanges(added + (existing == nil ? 1 : 0), tx, config)
        return (schema, changed)
    }

    /// The `/schemas` JSON form, including default and built-in fields and the effective CLP.
    static func render(_ s: ClassSchema, config: ParseConfig) -> JSONObject {
        var fields: JSONObject = ["objectId": ["type": "String"], "createdAt": ["type": "Date"],
                                  "updatedAt": ["type": "Date"], "ACL": ["type": "ACL"]]
        for (name, def) in s.fields {
            if s.className == "_User" && name == "authData" { continue }
            var o = def.type.schemaJSON
            if def.required { o["required"] = true }
            if let d = def.defaultValue { o["defaultValue"] = d }
            fields[name] = .object(o)
        }
        var clp = s.clp ?? CLP.defaultPermissions
        if let serverWide = config.protectedFields[s.className]?.objectValue {
            var pf = clp["protectedFields"]?.objectValue ?? JSONObject()
            for (k, v) in serverWide {
                var list = pf[k]?.arrayValue ?? []
                for item in v.arrayValue ?? [] where !list.contains(item) { list.append(item) }
                pf[k] = .array(list)
            }
            clp["protectedFields"] = .object(pf)
        }
        var out: JSONObject = ["className": .string(s.className), "fields": .object(fields),
                               "classLevelPermissions": .object(clp)]
        if !s.indexes.isEmpty {
            var idx: JSONObject = ["_id_": ["_id": 1]]
            for (k, v) in s.indexes { idx[k] = v }
            out["indexes"] = .object(idx)
        }
        return out
    }
}
