/// The type knowledge of one field, as the catalogue of one environment holds it (§4.3).
public struct FieldInfo: Sendable, Equatable {
    /// The catalogue's id of the field: the internal name values, indexes and full-text rows are stored
    /// under, so that no client-chosen name ever reaches SQL text.
    public var id: Int64
    /// The field id as clients write it.
    public var name: String
    /// The type; nil for a field that has a declared index but no value yet.
    public var type: FieldType?
    /// For references: to-many rather than to-one.
    public var many: Bool
    /// For references: the entity the field points to (the first referenced object's, without a schema).
    public var target: String?
    /// The field has a declared index (§5.6).
    public var indexed: Bool

    /// A catalogue entry.
    public init(id: Int64, name: String, type: FieldType?, many: Bool = false, target: String? = nil,
                indexed: Bool = false) {
        self.id = id
        self.name = name
        self.type = type
        self.many = many
        self.target = target
        self.indexed = indexed
    }

    /// The kind BQL sees (§6.2): to-one, to-many, a value type, or unknown when no type was learned yet.
    public var bqlKind: BQLFieldKind {
        guard let type else { return .unknown }
        if type == .reference { return many ? .toMany : .toOne }
        return .scalar(type)
    }
}

/// The field catalogue of one environment: every entity that holds objects and the fields learned for it.
public struct FieldCatalogue: Sendable, Equatable {
    /// Entity id -> field id -> entry.
    public var entities: [String: [String: FieldInfo]]

    /// A catalogue.
    public init(entities: [String: [String: FieldInfo]] = [:]) {
        self.entities = entities
    }

    /// The entry of `field` in `entity`, if learned.
    public func field(_ field: String, of entity: String) -> FieldInfo? { entities[entity]?[field] }

    /// The entries of `entity` by their internal id.
    public func fieldsByID(of entity: String) -> [Int64: FieldInfo] {
        var out: [Int64: FieldInfo] = [:]
        for info in (entities[entity] ?? [:]).values { out[info.id] = info }
        return out
    }
}
