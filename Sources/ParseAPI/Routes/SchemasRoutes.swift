import Core

/// `/schemas` and `/purge` (master key only, spec §14).
enum SchemasRoutes {
    static func register(_ t: inout RouteTable) {
        let read = RouteOptions(masterOnly: true)
        func denial(_ what: String) -> RouteOptions {
            RouteOptions(masterOnly: true, readOnlyDenial: "read-only masterKey isn't allowed to \(what) a schema.")
        }
        t.add(.get, "/schemas", read) { c in try all(c) }
        t.add(.get, "/schemas/:className", read) { c in try get(c, c.param("className")) }
        t.add(.post, "/schemas", denial("create")) { c in try create(c, nil) }
        t.add(.post, "/schemas/:className", denial("create")) { c in try create(c, c.param("className")) }
        t.add(.put, "/schemas/:className", denial("update")) { c in try update(c, c.param("className")) }
        t.add(.delete, "/schemas/:className", denial("delete")) { c in try drop(c, c.param("className")) }
        t.add(.delete, "/purge/:className", denial("purge")) { c in try purge(c, c.param("className")) }
    }

    static func all(_ c: ParseContext) throws -> ParseReply {
        let config = c.config
        let list = try c.read { tx -> [JSON] in
            var schemas = try tx.allSchemas()
            for sys in ["_User", "_Role", "_Session", "_Installation"] where !schemas.contains(where: { $0.className == sys }) {
                if let s = try Schemas.load(sys, tx) { schemas.append(s) }
            }
            return schemas.map { .object(Schemas.render($0, config: config)) }
        }
        return .ok(["results": .array(list)])
    }

    static func get(_ c: ParseContext, _ name: String) throws -> ParseReply {
        let config = c.config
        guard let s = try c.read({ try Schemas.load(name, $0) }) else { throw ParseError(103, "Class \(name) does not exist.") }
        return .ok(Schemas.render(s, config: config))
    }

    static func className(_ c: ParseContext, _ pathName: String?) throws -> String {
        let bodyName = c.body["className"]?.stringValue
        if let pathName, let bodyName, pathName != bodyName {
            throw ParseError(103, "Class name mismatch between \(bodyName) and \(pathName).")
        }
        guard let name = pathName ?? bodyName else { throw ParseError(135, "POST /schemas needs a class name.") }
        try FieldNames.checkClassName(name)
        return name
    }

    static func create(_ c: ParseContext, _ pathName: String?) throws -> ParseReply {
        let name = try className(c, pathName)
        let body = c.body, config = c.config
        let rendered = try c.write { tx -> JSONObject in
            if try Schemas.load(name, tx) != nil { throw ParseError(103, "Class \(name) already exists.") }
            var schema = ClassSchema(className: name)
            try apply(body, to: &schema, tx: tx, creating: true, config: config)
            try tx.saveSchema(schema)
            return Schemas.render(schema, config: config)
        }
        refreshStatisticsIfIndexed(c, body)
        return .ok(rendered)
    }

    static func update(_ c: ParseContext, _ name: String) throws -> ParseReply {
        if let bodyName = c.body["className"]?.stringValue, bodyName != name {
            throw ParseError(103, "Class name mismatch between \(bodyName) and \(name).")
        }
        let body = c.body, config = c.config
        let rendered = try c.write { tx -> JSONObject in
            guard var schema = try Schemas.load(name, tx) else { throw ParseError(103, "Class \(name) does not exist.") }
            try apply(body, to: &schema, tx: tx, creating: false, config: config)
            try tx.saveSchema(schema)
            return Schemas.render(schema, config: config)
        }
        refreshStatisticsIfIndexed(c, body)
        return .ok(rendered)
    }

    /// A declared index is only chosen by SQLite's planner once `sqlite_stat1` says how unselective the
    /// class column is (see `Storage.refreshStatistics`), so statistics are refreshed after index changes.
    /// A failure here costs speed, not correctness, so it is logged rather than answered.
    static func refreshStatisticsIfIndexed(_ c: ParseContext, _ body: JSONObject) {
        guard body["indexes"] != nil else { return }
        do { try c.app.store.refreshStatistics() } catch {
            c.app.logger.warning("statistics refresh after an index change failed: \(error)")
        }
    }

    /// Applies `fields`, `classLevelPermissions` and `indexes`; all-or-nothing because it runs in one job.
    /// Each field added or deleted (and a new class) is a schema change counted against
    /// `maxSchemaChangesPerRequest`; a deletion rewrites every object of the class.
    static func apply(_ body: JSONObject, to schema: inout ClassSchema, tx: any ParseTransaction, creating: Bool,
                      config: ParseConfig) throws {
        let name = schema.className
        if let fields = body["fields"]?.objectValue {
            try WriteLimits.countSchemaChanges(fields.count + (creating ? 1 : 0), tx, config)
            var added = 0
            for (f, def) in fields {
                if def.objectValue?["__op"]?.stringValue == "Delete" {
                    if FieldNames.defaultFields.contains(f) || FieldNames.builtinFields(name).contains(where: { $0.0 == f }) {
                        throw ParseError(136, "field \(f) cannot be changed")
                    }
                    guard schema.field(f) != nil else { throw ParseError(255, "Field \(f) does not exist, cannot delete.") }
                    schema.removeField(f)
                    try removeFieldData(f, className: name, tx: tx)
                    continue
                }
                if !creating, schema.field(f) != nil, !FieldNames.defaultFields.contains(f) {
                    throw ParseError(255, "Field \(f) exists, cannot update.")
                }
                let parsed = try SchemaValidation.field(f, def, className: name)
                if parsed.type == .geoPoint, let other = schema.fields.first(where: { $0.field.type == .geoPoint && $0.name != f }) {
                    throw ParseError(111, "currently, only one GeoPoint field may exist in an object. Adding \(f) when "
                        + "\(other.name) already exists.")
                }
                if schema.field(f) == nil { added += 1 }
                schema.setField(f, parsed)
            }
            try WriteLimits.checkClass(schema, added: added, config)
        } else if creating {
            try WriteLimits.countSchemaChanges(1, tx, config)
        }
        if let clp = body["classLevelPermissions"] {
            schema.clp = clp.isNull ? nil : try SchemaValidation.clp(clp, schema: schema)
        }
        if let indexes = body["indexes"]?.objectValue {
            for (indexName, spec) in indexes {
                if spec.objectValue?["__op"]?.stringValue == "Delete" {
                    guard schema.indexes[indexName] != nil else {
                        throw ParseError(102, "Index \(indexName) does not exist, cannot delete.")
                    }
                    schema.indexes[indexName] = nil
                    try tx.dropIndex(name: indexName, className: name)
                    continue
                }
                guard SchemaValidation.isValidIndexName(indexName) else { throw ParseError(102, "Invalid index name: \(indexName)") }
                if schema.indexes[indexName] != nil { throw ParseError(102, "Index \(indexName) exists, cannot update.") }
                guard let fieldsSpec = spec.objectValue else { throw ParseError(102, "Index \(indexName) must be an object.") }
                if fieldsSpec.count == 1, let (field, kind) = fieldsSpec.first(where: { _ in true }), kind.stringValue == "text" {
                    guard schema.field(field)?.type == .string else {
                        throw ParseError(102, "A text index needs a String field: \(field).")
                    }
                    try tx.enableText(name, field)
                    schema.indexes[indexName] = spec
                    continue
                }
                try tx.createIndex(name: indexName, className: name, keys: try IndexKeys.keys(fieldsSpec, schema: schema))
                schema.indexes[indexName] = spec
            }
        }
    }

    /// Deleting a field removes its values from every object and its relation rows (spec §14.6).
    static func removeFieldData(_ field: String, className: String, tx: any ParseTransaction) throws {
        try tx.deleteRelations(ownerClass: className, field: field)
        try tx.removeFieldValues(className, field)
    }

    static func drop(_ c: ParseContext, _ name: String) throws -> ParseReply {
        try FieldNames.checkClassName(name)
        if FieldNames.systemClasses.contains(name) { throw ParseError(103, "System class \(name) cannot be deleted.") }
        try c.write { tx in
            let n = try tx.count(name)
            if n > 0 { throw ParseError(255, "Class \(name) is not empty, contains \(n) objects, cannot drop schema.") }
            if let s = try tx.schema(name) {
                for idx in s.indexes.keys { try tx.dropIndex(name: idx, className: name) }
            }
            try tx.deleteRelations(ownerClass: name, field: nil)
            try tx.clearText(name, drop: true)
            try tx.deleteSchema(name)
        }
        return .empty
    }

    static func purge(_ c: ParseContext, _ name: String) throws -> ParseReply {
        try FieldNames.checkClassName(name)
        try c.write { tx in
            try tx.deleteAll(name)
            try tx.clearText(name, drop: false)
            try tx.deleteRelations(ownerClass: name, field: nil)
            if name == "_User" { try tx.deleteAll("_Session") }
        }
        return .empty
    }
}
