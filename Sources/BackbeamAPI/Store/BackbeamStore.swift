/// Everything the Backbeam API keeps, behind one protocol (the SQLite implementation is
/// `SQLiteBackbeamStore`). Handlers parse the wire format, call this, and render what it returns.
///
/// Errors: validation failures are thrown as `BackbeamError` (with the wire status), anything else is an
/// internal failure the caller answers with `InternalError`. Every write is one transaction, durable before
/// the method returns.
public protocol BackbeamStore: Sendable {
    // MARK: Projects created at run time (§1.3, §5.6)

    /// Creates `name` with the given key pairs; false when a project of that name exists.
    func createProject(name: String, keys: [BackbeamEnvironment: KeyPair], now: Int64) throws -> Bool
    /// A created project with its keys, or nil.
    func createdProject(named name: String) throws -> StoredProject?
    /// The names of all created projects, sorted.
    func createdProjectNames() throws -> [String]
    /// Adds a key pair to an environment of a created project; false when the project does not exist.
    func addKey(project: String, env: BackbeamEnvironment, pair: KeyPair, now: Int64) throws -> Bool
    /// Revokes a key pair; false when it was not there.
    func revokeKey(project: String, env: BackbeamEnvironment, key: String) throws -> Bool
    /// The space of a project environment, created when `create` is set; nil when absent.
    func space(project: String, env: BackbeamEnvironment, create: Bool) throws -> SpaceID?

    // MARK: Catalogue and indexes (§4.3, §5.6)

    /// The field catalogue of an environment.
    func catalogue(space: SpaceID) throws -> FieldCatalogue
    /// Declares an index on `entity.field` and builds it; false when it already existed.
    func declareIndex(space: SpaceID, entity: String, field: String, now: Int64) throws -> Bool
    /// Drops a declared index; false when there was none.
    func dropIndex(space: SpaceID, entity: String, field: String) throws -> Bool
    /// The declared indexes, sorted by entity and field.
    func indexes(space: SpaceID) throws -> [(entity: String, field: String)]

    // MARK: Objects (§5.2)

    /// A BQL query (list, near or bounding) with its joins.
    func query(_ request: QueryRequest) throws -> ObjectPage
    /// One object of `entity` with the joins of `joins`; nil when there is no such object of that entity.
    func read(space: SpaceID, entity: String, id: String, joins: BQLBoundQuery?, schema: ProjectSchema?,
              maxJoinWindow: Int) throws -> ObjectPage?
    /// Creates an object from the commands; returns it as stored.
    func create(_ request: WriteRequest) throws -> ObjectRecord
    /// Applies the commands to an existing object; nil when there is no such object of that entity.
    func update(_ request: WriteRequest) throws -> ObjectRecord?
    /// Deletes an object with the cascades of §5.2.7; returns its last state, nil when absent.
    func delete(space: SpaceID, entity: String, id: String) throws -> ObjectRecord?
    /// Deletes the objects a query selects within its window (§5.2.8); returns how many.
    func remove(_ request: QueryRequest) throws -> Int

    // MARK: Sessions (§3.7)

    /// The id of the user whose session code hashes to `tokenHash` in this environment, or nil.
    func sessionUser(space: SpaceID, tokenHash: String, minCreatedAt: Int64?) throws -> String?
    /// Revokes every session of a user; returns how many.
    func revokeSessions(space: SpaceID, userID: String) throws -> Int
}
