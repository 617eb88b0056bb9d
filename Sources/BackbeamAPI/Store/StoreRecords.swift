import Core

/// The internal id of one project environment: the data namespace every stored row belongs to.
public struct SpaceID: Sendable, Hashable {
    /// The row id in `bb_spaces`.
    public let value: Int64

    /// A space id.
    public init(_ value: Int64) { self.value = value }
}

/// The two environments of every project (§1.3).
public enum BackbeamEnvironment: String, Sendable, CaseIterable {
    /// Development.
    case dev
    /// Production.
    case pro
}

/// A shared key and its secret (§3.1).
public struct KeyPair: Sendable, Equatable {
    /// The shared key, sent as `key`.
    public var key: String
    /// The secret, never sent; it keys the HMAC.
    public var secret: String

    /// A key pair.
    public init(key: String, secret: String) {
        self.key = key
        self.secret = secret
    }

    /// A new pair in the format of published Backbeam keys: `<env>_` + 40 lowercase hex characters for the
    /// shared key, `<env>_` + 80 for the secret, from the CSPRNG (§3.1).
    public static func generate(for env: BackbeamEnvironment) -> KeyPair {
        KeyPair(key: env.rawValue + "_" + RandomID.hex(20), secret: env.rawValue + "_" + RandomID.hex(40))
    }
}

/// A project created at run time, as stored.
public struct StoredProject: Sendable, Equatable {
    /// The project name.
    public var name: String
    /// When it was created (ms).
    public var createdAt: Int64
    /// The key pairs of each environment, oldest first.
    public var keys: [BackbeamEnvironment: [KeyPair]]

    /// A stored project.
    public init(name: String, createdAt: Int64, keys: [BackbeamEnvironment: [KeyPair]]) {
        self.name = name
        self.createdAt = createdAt
        self.keys = keys
    }
}

/// An object as stored: its identity, times, and its fields already rendered as response members.
public struct ObjectRecord: Sendable, Equatable {
    /// Internal key (links, references, full-text rows).
    public var seq: Int64
    /// The object id.
    public var id: String
    /// The entity id.
    public var entity: String
    /// Creation time (ms).
    public var createdAt: Int64
    /// Last change (ms).
    public var updatedAt: Int64
    /// The value fields as response members (`"name#t":"Bar Pepe","price#n":3`), without braces.
    public var vals: [UInt8]
    /// The to-one references in their unjoined form (`"author#r":{"id":"..","type":"user"}`).
    public var refs: [UInt8]
    /// For users, the `login_*` members (§4.7).
    public var login: [UInt8]

    /// A record.
    public init(seq: Int64, id: String, entity: String, createdAt: Int64, updatedAt: Int64, vals: [UInt8] = [],
                refs: [UInt8] = [], login: [UInt8] = []) {
        self.seq = seq
        self.id = id
        self.entity = entity
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.vals = vals
        self.refs = refs
        self.login = login
    }
}

/// An object of a response with the relationships a query joined on it.
public struct ResponseObject: Sendable, Equatable {
    /// The stored object.
    public var record: ObjectRecord
    /// To-one fields rendered as the bare id because the target is in `objects` (joined or fetched).
    public var joinedToOne: [String]
    /// Joined to-many fields: ids in join order and the relationship's total size.
    public var toMany: [JoinedToMany]

    /// A response object.
    public init(record: ObjectRecord, joinedToOne: [String] = [], toMany: [JoinedToMany] = []) {
        self.record = record
        self.joinedToOne = joinedToOne
        self.toMany = toMany
    }
}

/// One joined to-many relationship of an object (§4.5): `{"result":[..],"count":N}`.
public struct JoinedToMany: Sendable, Equatable {
    /// The field id.
    public var field: String
    /// The joined ids (empty for a plain `join f`).
    public var result: [String]
    /// The total size of the relationship (ignoring `having`).
    public var count: Int

    /// A joined relationship.
    public init(field: String, result: [String], count: Int) {
        self.field = field
        self.result = result
        self.count = count
    }
}

/// The outcome of a query or a read: the main ids, the total count and every object of the response.
public struct ObjectPage: Sendable, Equatable {
    /// The main results in order.
    public var ids: [String]
    /// The number of matches ignoring limit and offset.
    public var count: Int
    /// Every main, joined and fetched object, each once, in the order first reached.
    public var objects: [ResponseObject]
    /// For near queries: integer metres parallel to `ids`.
    public var distances: [Int]?
    /// The members of `objects` already rendered while the rows were read (`"<id>":{...},...`), when the
    /// store could (a page without to-many joins or fetches): then `objects` is empty and the response
    /// copies these bytes.
    public var renderedObjects: [UInt8]?
    /// `ids` already rendered as the members of a JSON array (`"a","b"`), when the store wrote them while
    /// the rows were read.
    public var renderedIDs: [UInt8]?

    /// A page.
    public init(ids: [String] = [], count: Int = 0, objects: [ResponseObject] = [], distances: [Int]? = nil,
                renderedObjects: [UInt8]? = nil, renderedIDs: [UInt8]? = nil) {
        self.ids = ids
        self.count = count
        self.objects = objects
        self.distances = distances
        self.renderedObjects = renderedObjects
        self.renderedIDs = renderedIDs
    }
}

/// A geographic constraint of a query (§5.2.2, §5.2.3).
public enum GeoFilter: Sendable, Equatable {
    /// Nearest first from a point; only objects whose field has coordinates.
    case near(field: String, lat: Double, lon: Double)
    /// Inside a box (crossing the antimeridian when `swLon > neLon`).
    case bounding(field: String, swLat: Double, swLon: Double, neLat: Double, neLon: Double)

    /// The location field.
    public var field: String {
        switch self {
        case .near(let field, _, _), .bounding(let field, _, _, _, _): return field
        }
    }
}

/// A query of one entity: `q` with its `params`, a page window and an optional geographic constraint.
public struct QueryRequest: Sendable {
    /// The environment.
    public var space: SpaceID
    /// The queried entity.
    public var entity: String
    /// The BQL and its parameters.
    public var query: BQLBoundQuery
    /// Most results (already clamped by the caller); nil for no limit (remove-by-query).
    public var limit: Int?
    /// Results skipped.
    public var offset: Int
    /// Near or bounding.
    public var geo: GeoFilter?
    /// The project's schema, if any.
    public var schema: ProjectSchema?
    /// The clamp of `join first|last N` (`backbeam.maxLimit`).
    public var maxJoinWindow: Int

    /// A query request.
    public init(space: SpaceID, entity: String, query: BQLBoundQuery, limit: Int?, offset: Int = 0,
                geo: GeoFilter? = nil, schema: ProjectSchema? = nil, maxJoinWindow: Int = 1000) {
        self.space = space
        self.entity = entity
        self.query = query
        self.limit = limit
        self.offset = offset
        self.geo = geo
        self.schema = schema
        self.maxJoinWindow = maxJoinWindow
    }
}

/// A change to a user's login data that travels with a write (§4.6 user specials). The caller validates the
/// email and hashes the password before the write is queued, so no bcrypt runs on the writer.
public struct CredentialChange: Sendable, Equatable {
    /// What happens to one credential.
    public enum Change: Sendable, Equatable {
        /// Set to this value (a normalised email, or a bcrypt hash).
        case set(String)
        /// Remove it.
        case delete
    }

    /// The login email.
    public var email: Change?
    /// The password hash.
    public var passwordHash: Change?

    /// A change; nil members are left alone.
    public init(email: Change? = nil, passwordHash: Change? = nil) {
        self.email = email
        self.passwordHash = passwordHash
    }

    /// True when nothing changes.
    public var isEmpty: Bool { email == nil && passwordHash == nil }
}

/// Bounds of the data model (§4.3), configurable.
public struct ModelLimits: Sendable, Equatable {
    /// Most entities per environment.
    public var maxEntities: Int
    /// Most fields per entity.
    public var maxFieldsPerEntity: Int

    /// The defaults of §4.3: 256 and 256.
    public init(maxEntities: Int = 256, maxFieldsPerEntity: Int = 256) {
        self.maxEntities = maxEntities
        self.maxFieldsPerEntity = maxFieldsPerEntity
    }
}

/// A create (`id` nil) or an update of one object with the commands of one request.
public struct WriteRequest: Sendable {
    /// The environment.
    public var space: SpaceID
    /// The entity.
    public var entity: String
    /// The object to update; nil to create one.
    public var id: String?
    /// The commands.
    public var commands: CommandSet
    /// The project's schema, if any.
    public var schema: ProjectSchema?
    /// User login data changing with this write.
    public var credentials: CredentialChange
    /// A session, code and mail issued for the written user in the same transaction.
    public var grant: UserGrant
    /// The server clock (ms).
    public var now: Int64
    /// Entity and field limits.
    public var limits: ModelLimits

    /// A write request.
    public init(space: SpaceID, entity: String, id: String? = nil, commands: CommandSet, schema: ProjectSchema? = nil,
                credentials: CredentialChange = CredentialChange(), grant: UserGrant = UserGrant(), now: Int64,
                limits: ModelLimits = ModelLimits()) {
        self.space = space
        self.entity = entity
        self.id = id
        self.commands = commands
        self.schema = schema
        self.credentials = credentials
        self.grant = grant
        self.now = now
        self.limits = limits
    }
}
