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
    /// Field name -> definition, in declaration order. Default fields are not stored here. Assigning it
    /// rebuilds the positions; `setField` adds one field without doing so.
    var fields: [(name: String, field: FieldDefinition)] {
        get { ordered }
        set {
            ordered = newValue
            rebuildPositions()
        }
    }
    private var ordered: [(name: String, field: FieldDefinition)] = []
    /// Field name -> position in `fields`, kept once a class has `indexThreshold` fields: a write checks
    /// every field it names against the schema, so a scan per name would make wide writes quadratic.
    private var positions: [String: Int]?
    var clp: JSONObject?
    /// Index name -> `{field: 1|-1|"text"}`.
    var indexes: JSONObject

    /// Below this many fields a scan of the names is cheaper than hashing the one looked up.
    static let indexThreshold = 16

    init(className: String, fields: [(name: String, field: FieldDefinition)] = [], clp: JSONObject? = nil,
         indexes: JSONObject = JSONObject()) {
        self.className = className
        self.clp = clp
        self.indexes = indexes
        for (name, def) in fields { setField(name, def) }
    }

    func field(_ name: String) -> FieldDefinition? { position(of: name).map { ordered[$0].field } }

    private func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return ordered.firstIndex { $0.name == name }
    }

    mutating func setField(_ name: String, _ def: FieldDefinition) {
        if let i = position(of: name) {
            ordered[i].field = def
            return
        }
        ordered.append((name, def))
        if positions != nil {
            positions?[name] = ordered.count - 1
        } else if ordered.count >= Self.indexThreshold {
            rebuildPositions()
        }
    }

    mutating func removeField(_ name: String) {
        ordered.removeAll { $0.name == name }
        rebuildPositions()
    }

    private mutating func rebuildPositions() {
        guard ordered.count >= Self.indexThreshold else {
            positions = nil
            return
        }
        var table = [String: Int](minimumCapacity: ordered.count)
        // The first of repeated names wins, as a scan would find it.
        for (i, f) in ordered.enumerated() where table[f.name] == nil { table[f.name] = i }
        positions = table
    }

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
