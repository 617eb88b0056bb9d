import Core

/// The Couch API's storage (spec §7). Handlers call it and render what it returns; the SQLite
/// implementation is `SQLiteCouchStore`, and all SQL lives in this folder.
///
/// Reads see committed data only. Writes run as jobs of the storage writer: each call is one job and so one
/// transaction inside a group commit, its sequence numbers assigned in commit order, and its completion
/// called only once the commit is durable.
public protocol CouchStore: Sendable {
    /// The server's uuid and cookie secret (created at first start, then fixed).
    var metadata: ServerMetadata { get }

    /// Moves after every commit that changes what authorization reads (`_security`, design documents,
    /// `_users`, databases created or deleted), so caches of those facts know when they are stale.
    var accessEpoch: AccessEpoch { get }

    /// The plain read of a document's winner (§3.3.1 without options): one indexed lookup whose stored
    /// bytes `body` copies out. The buffers are valid only during `body`.
    func winner<T>(database: String, docID: String, _ body: (StoredWinner) throws -> T) throws -> Lookup<T>

    /// `winner` for a caller that must not wait (an I/O thread): nil when no connection is free at once, when
    /// SQLite would wait for a lock, or when the winner's body and attachments exceed `maxSize` bytes (its
    /// body is then not read). `body` runs only for a live (not deleted) winner found; nil as well when the
    /// document, its database or a live winner is missing, which the caller then asks `winner` about.
    func liveWinnerIfAtHand<T>(database: String, docID: String, maxSize: Int,
                               _ body: (StoredWinner) throws -> T) throws -> T?

    /// Whether database `name` exists (one statement, no transaction).
    func databaseExists(_ name: String) throws -> Bool

    /// Runs `body` on one consistent snapshot.
    func read<T>(_ body: (any CouchReader) throws -> T) throws -> T

    /// Creates a database; false when one of that name exists (the caller answers 412).
    func createDatabase(name: String, createdMicros: Int64) throws -> Bool

    /// Deletes a database with its documents, revisions, attachment references and `_local` documents;
    /// false when there is none. Subscribers of its change topic get an event with `deletedDetail` and
    /// sequence `Int64.max` (it passes every feed's cursor).
    func deleteDatabase(name: String) throws -> Bool

    /// Stores the `_security` object (compact JSON) of `database`; false when there is no such database.
    func setSecurity(database: String, object: [UInt8]) throws -> Bool

    /// Sets `_revs_limit`; false when there is no such database.
    func setRevsLimit(database: String, limit: Int) throws -> Bool

    /// Applies document edits in order, all in one job (§5.10); an edit sees the ones before it. Fails
    /// with `CouchError.databaseMissing` when the database is gone; per-edit failures are outcomes.
    func apply(database: String, edits: [DocumentEdit],
               completion: @escaping @Sendable (Result<[EditOutcome], any Error>) -> Void)

    /// `_bulk_docs` (§3.7): like `apply(database:edits:completion:)`, with `_local` documents among the
    /// elements; one outcome per element, in order, all in one job.
    func apply(database: String, bulk: [BulkEdit],
               completion: @escaping @Sendable (Result<[EditOutcome], any Error>) -> Void)

    /// `_purge` (§3.12) in one job: removes the named leaves and their unshared ancestors; fails with
    /// `CouchError.databaseMissing` when the database is gone.
    func purge(database: String, requests: [PurgeRequest],
               completion: @escaping @Sendable (Result<PurgeResult, any Error>) -> Void)

    /// Writes `_local` document `id` with revision number `rev` (§3.4), or deletes it when `body` is nil.
    /// The result is false for the deletion of an unknown document; the job fails with
    /// `CouchError.databaseMissing` when the database is gone.
    func writeLocal(database: String, id: String, rev: Int64, body: [UInt8]?,
                    completion: @escaping @Sendable (Result<Bool, any Error>) -> Void)

    /// Compaction (§5.12) in short jobs: drops non-leaf bodies, stems to `_revs_limit`, releases the blobs
    /// of attachments no revision keeps. Blocks the calling (background) thread; false when the database
    /// does not exist (or was deleted meanwhile).
    func compact(database: String) throws -> Bool
}

/// Reads inside one snapshot (see `CouchStore.read`).
public protocol CouchReader {
    /// The database named `name`, or nil.
    func database(named name: String) throws -> DatabaseRecord?

    /// The `_security` object and live design document bodies of database `name`, or nil when it does not exist.
    func access(databaseNamed name: String) throws -> StoredAccess?

    /// Database names in byte order under `query` (§3.1.3).
    func databaseNames(_ query: DatabaseListQuery) throws -> [String]

    /// Document `id` of database `databaseID` with its tree, or nil when it has never existed (or was
    /// purged).
    func document(databaseID: Int64, id: String) throws -> StoredDocument?

    /// The stored body of `rev` of the document with row id `documentRowID`, or nil when the body is not
    /// stored (unknown, stemmed, compacted, or an ancestor known only by id).
    func revision(documentRowID: Int64, rev: RevID) throws -> StoredRevision?

    /// `_local` document `id` (the whole id, prefix included), or nil.
    func localDocument(databaseID: Int64, id: String) throws -> LocalDocument?

    /// A page of an id index (§3.6), in iteration order.
    func documentList(databaseID: Int64, _ query: DocumentListQuery) throws -> [DocumentListRow]

    /// The number of entries of `index` inside `range` (`total_rows`, `offset`).
    func documentCount(databaseID: Int64, index: DocumentIndex, range: KeyRange) throws -> Int64

    /// The database incarnation with internal id `id`, or nil once it was deleted (a re-created database
    /// of the same name is another incarnation).
    func database(id: Int64) throws -> DatabaseRecord?

    /// Rows of the changes index (§3.11.2): one per document, at its current sequence, in sequence order.
    func changes(_ read: ChangesRead) throws -> [ChangeRecord]

    /// Number of rows of the changes index of `databaseID` with a sequence above `after` (when given) and
    /// below `before` (when given): `pending` (§3.11.2).
    func changeCount(databaseID: Int64, after: Int64?, before: Int64?) throws -> Int64
}

/// The change topic of a database incarnation and the detail of its deletion event.
public enum CouchTopics {
    /// `couch.db.<internal id>`: one event per committed job that changed the database, whose `sequence`
    /// is the database's new `update_seq`.
    public static func database(_ id: Int64) -> String { "couch.db.\(id)" }

    /// The detail of the event announcing that the database was deleted (`_changes` feeds end then); its
    /// sequence is `Int64.max`.
    public static let deletedDetail = "deleted"
}
