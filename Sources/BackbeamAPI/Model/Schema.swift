/// The optional schema of a project (§1.3, §4.3, §10): declared entities and fields with fixed types.
/// It applies to both environments.
public struct ProjectSchema: Sendable, Equatable {
    /// Undeclared entities are not found and undeclared fields refused (§4.3).
    public var strict: Bool
    /// Entity id -> its declared fields.
    public var entities: [String: EntitySchema]

    /// A schema.
    public init(strict: Bool = false, entities: [String: EntitySchema] = [:]) {
        self.strict = strict
        self.entities = entities
    }

    /// The declared field `field` of `entity`, if any.
    public func field(_ field: String, of entity: String) -> SchemaField? { entities[entity]?.fields[field] }

    /// True when `entity` may be used: always without `strict`; with it, only declared entities.
    public func allows(entity: String) -> Bool { !strict || entities[entity] != nil }

    /// The to-many field that names `field` of `entity` as its inverse (§4.5: `country.cities` with
    /// `inverse: country` is found from `city.country`).
    public func inverseOwner(ofToOne field: String, in entity: String) -> (entity: String, field: String)? {
        for (owner, schema) in entities.sorted(by: { $0.key < $1.key }) {
            for (name, declared) in schema.fields.sorted(by: { $0.key < $1.key })
            where declared.many && declared.target == entity && declared.inverse == field {
                return (owner, name)
            }
        }
        return nil
    }
}

/// The declared fields of one entity.
public struct EntitySchema: Sendable, Equatable {
    /// Field id -> declaration.
    public var fields: [String: SchemaField]

    /// An entity schema.
    public init(fields: [String: SchemaField] = [:]) {
        self.fields = fields
    }
}

/// One declared field.
public struct SchemaField: Sendable, Equatable {
    /// The type.
    public var type: FieldType
    /// For references: to-many rather than to-one.
    public var many: Bool
    /// For references: the entity referenced objects must belong to (nil: any).
    public var target: String?
    /// For to-many references: the field of the target that mirrors this one (§4.5).
    public var inverse: String?
    /// For `#s`: the allowed options (empty: any string).
    public var options: [String]

    /// A declaration.
    public init(type: FieldType, many: Bool = false, target: String? = nil, inverse: String? = nil, options: [String] = []) {
        self.type = type
        self.many = many
        self.target = target
        self.inverse = inverse
        self.options = options
    }
}
