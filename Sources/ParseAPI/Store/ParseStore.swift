import Core
import Storage

/// Which uniqueness rule a write broke (the caller maps it to the documented Parse error).
enum StoreConflict: Error, Sendable, Equatable {
    case objectId, username, email, roleName, sessionToken, requestId, fileName, other
}

/// What `ParseTransaction.schemaAndObject` found.
struct SchemaAndObject {
    /// The stored schema (nil when the class has none; built-in fields of system classes are not added).
    var schema: ClassSchema?
    /// The object's row, its JSON not parsed yet.
    var stored: StoredText
    /// Whether the caller's ACL group may read `object` (the same test as a query's ACL condition).
    var readable: Bool
}

/// Storage of the Parse API, independent of the engine. `read` runs on a read-only connection (or inside
/// the surrounding transaction of a transactional batch); `write` runs as one durable writer job.
protocol ParseStore: Sendable {
    func read<T>(_ body: (any ParseTransaction) throws -> T) throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T) throws -> T
    /// Queues `body` as one durable writer job and returns at once; `completion` runs on the storage
    /// completion queue once the job committed (or failed).
    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void)
    /// Records a file name for a stored blob and takes a reference on the blob, in one write job.
    func addFile(_ record: FileRecord, blobs: BlobStore) throws
    /// Removes a file name and drops its blob reference; false when the name is unknown.
    func removeFile(_ name: String, blobs: BlobStore) throws -> Bool
    /// Refreshes the query planner's statistics (after declared indexes change).
    func refreshStatistics() throws
    /// Like `read`, for a body that runs exactly one statement: it may skip the transaction around it.
    func readStatement<T>(_ body: (any ParseTransaction) throws -> T) throws -> T
    /// The share of the read connections that slow queries may hold at once (nil: no cap).
    var heavyReads: ReaderShare? { get }
}

extension ParseStore {
    func readStatement<T>(_ body: (any ParseTransaction) throws -> T) throws -> T { try read(body) }
    var heavyReads: ReaderShare? { nil }
}

extension ParseTransaction {
    func insert(_ object: StoredObject) throws { try insert(object, serializedData: nil) }
    func update(_ object: StoredObject) throws { try update(object, serializedData: nil) }
}

/// The operations handlers need, on one connection. Not thread-safe: used inside one read or write call.
protocol ParseTransaction: AnyObject {
    /// Schema changes (new classes and fields) made through this transaction so far; see
    /// `WriteLimits.countSchemaChanges`.
    var schemaChanges: Int { get set }

    // Schemas
    func schema(_ className: String) throws -> ClassSchema?
    func allSchemas() throws -> [ClassSchema]
    func saveSchema(_ schema: ClassSchema) throws
    func deleteSchema(_ className: String) throws

    // Objects
    func object(_ className: String, _ objectId: String) throws -> StoredObject?
    /// One object's row as stored, undecoded.
    func storedObject(_ className: String, _ objectId: String) throws -> StoredText?
    /// One object's row without its data (`data` empty), and whether the stored data is exactly `expected`:
    /// compared where SQLite holds it, without copying a large object out.
    func storedObject(_ className: String, _ objectId: String, comparingData expected: [UInt8]) throws
        -> (row: StoredText, dataMatches: Bool)?
    /// One object with its class schema, read by one statement (so from one snapshot), and whether the
    /// object's ACL lets `caller` read it (always for the master key). Nil when there is no such object.
    func schemaAndObject(_ className: String, _ objectId: String, caller: Caller) throws -> SchemaAndObject?
    func objects(_ className: String, ids: [String]) throws -> [StoredObject]
    /// Inserts `object`; `serializedData` is `object.data` already serialized (a caller that measured the
    /// object's size has it), nil to serialize here.
    func insert(_ object: StoredObject, serializedData: String?) throws
    /// Rewrites `object`; `serializedData` as for `insert`.
    func update(_ object: StoredObject, serializedData: String?) throws
    @discardableResult func delete(_ className: String, _ objectId: String) throws -> Bool
    func deleteAll(_ className: String) throws
    /// Removes one field from every object of a class (schema field deletion).
    func removeFieldValues(_ className: String, _ field: String) throws
    func count(_ className: String) throws -> Int
    /// Objects of `className` whose data at `path` (a hidden or plain top-level key) equals `value`.
    func find(_ className: String, path: [String], equals value: SQLScalar, limit: Int) throws -> [StoredObject]
    /// The objects a planned query selects, in its order, with its page.
    func run(_ query: QueryPlan) throws -> [StoredObject]
    /// `run`, with the objects written to `out` as JSON, separated by commas: each object whose stored text
    /// renders as it is (`PlainObjectBytes`) straight from its row, the others through `render`.
    func runPlain(_ query: QueryPlan, into out: inout [UInt8], render: (StoredText) throws -> [UInt8]) throws
    /// How many objects the query's conditions select (order and page ignored).
    func runCount(_ query: QueryPlan) throws -> Int
    /// Streams the query's objects in order (limit/skip ignored); `body` returns false to stop.
    func stream(_ query: QueryPlan, _ body: (StoredObject) throws -> Bool) throws
    /// Runs `body` with its statements interrupted once `deadline` has passed (throws error 124 then).
    func withTimeLimit(until deadline: Deadline, _ body: () throws -> Void) throws

    // Relations
    func addRelation(ownerClass: String, field: String, ownerId: String, memberClass: String, memberIds: [String]) throws
    func removeRelation(ownerClass: String, field: String, ownerId: String, memberIds: [String]) throws
    func relationMembers(ownerClass: String, field: String, ownerId: String) throws -> [String]
    func deleteRelations(ownerClass: String, ownerId: String) throws
    func deleteMemberships(memberClass: String, memberId: String) throws
    func deleteRelations(ownerClass: String, field: String?) throws
    /// Names of every role the user has, following the `roles` hierarchy (spec §5.3).
    func roleNames(forUser userId: String) throws -> [String]

    // Files
    func file(_ name: String) throws -> FileRecord?
    func insertFile(_ record: FileRecord) throws
    @discardableResult func deleteFile(_ name: String) throws -> Bool

    // Config
    func configEntries() throws -> [ConfigEntry]
    func setConfig(_ entry: ConfigEntry) throws
    func deleteConfig(_ key: String) throws

    // Idempotency
    func requestIdRecorded(_ id: String, nowMillis: Int) throws -> Bool
    func recordRequestId(_ id: String, expiresAt: Int, nowMillis: Int) throws

    // Settings
    func setting(_ key: String) throws -> String?
    func setSetting(_ key: String, _ value: String) throws

    // Full-text search
    /// String fields of a class that have an FTS5 index.
    func textFields(_ className: String) throws -> [String]
    /// Creates the FTS5 index of a field and fills it from the existing objects.
    func enableText(_ className: String, _ field: String) throws
    /// Brings the FTS rows of one object up to date (`data` nil: the object is being deleted).
    func syncText(_ className: String, _ objectId: String, _ data: JSONObject?) throws
    /// Removes FTS data of a class: rows only (purge) or the tables too (drop).
    func clearText(_ className: String, drop: Bool) throws
    /// Relevance (higher is better) of the given objects for a search.
    func textScores(_ search: TextSearch, ids: [String]) throws -> [String: Double]

    // Indexes
    /// Creates a declared index of a class (spec §14.5) on the keys, in order.
    func createIndex(name: String, className: String, keys: [IndexKey]) throws
    func dropIndex(name: String, className: String) throws
}

/// A scalar bound to or read from a statement, without exposing the storage engine's value type.
enum SQLScalar: Sendable, Hashable {
    case null, integer(Int64), real(Double), text(String)

    var string: String? { if case .text(let s) = self { return s }; return nil }
    var int: Int64? { if case .integer(let i) = self { return i }; return nil }
}
