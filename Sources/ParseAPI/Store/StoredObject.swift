import Core

/// One object as kept in `parse_objects`: user fields and hidden `_` fields in `data`, the ACL apart.
struct StoredObject: Sendable, Equatable {
    var className: String
    var objectId: String
    /// User fields plus hidden fields (names starting with `_`, never rendered).
    var data: JSONObject
    /// The normalised ACL, nil when the object has none (public read and write).
    var acl: JSONObject?
    var createdAt: String
    var updatedAt: String
}

/// A class schema as stored in `parse_schemas` (spec §14.2).
struct ClassSchema: Sendable, Equatable {
    var className: String
    /// Field name -> definition, in declaration order. Default fields are not stored here.
    var fields: [(name: String, field: FieldDefinition)]
    var clp: JSONObject?
    /// Index name -> `{field: 1|-1|"text"}`.
    var indexes: JSONObject

    init(className: String, fields: [(name: String, field: FieldDefinition)] = [], clp: JSONObject? = nil,
         indexes: JSONObject = JSONObject()) {
        self.className = className
        self.fields = fields
        self.clp = clp
        self.indexes = indexes
    }

    func field(_ name: String) -> FieldDefinition? { fields.first { $0.name == name }?.field }

    mutating func setField(_ name: String, _ def: FieldDefinition) {
        if let i = fields.firstIndex(where: { $0.name == name }) { fields[i].field = def } else { fields.append((name, def)) }
    }

    mutating func removeField(_ name: String) { fields.removeAll { $0.name == name } }

    static func == (a: ClassSchema, b: ClassSchema) -> Bool {
        a.className == b.className && a.clp == b.clp && a.indexes == b.indexes
            && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.field) == b.fields.map(\.field)
    }
}

/// A field of a class schema.
struct FieldDefinition: Sendable, Equatable {
    var type: FieldType
    var required = false
    var defaultValue: JSON?
}

/// A stored file record.
struct FileRecord: Sendable, Equatable {
    var name: String
    var blobHash: String
    var size: Int
    var contentType: String?
    var metadata: JSONObject?
    var createdAt: String
}

/// One global config parameter.
struct ConfigEntry: Sendable, Equatable {
    var key: String
    var value: JSON
    var masterOnly: Bool
}
