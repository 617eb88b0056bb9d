/// Errors of the store that become `400 {"error": ...}`.
public enum DatastoreStoreError: Error, Sendable, Equatable {
    /// A shareable dsid already owned by someone else.
    case dsidInUse
    /// A precondition failure of a delta (`change <i>: ...`) or a size breach.
    case invalidDelta(String)
    /// A user name that does not match the name pattern.
    case invalidUserName
}

extension DatastoreStoreError: CustomStringConvertible {
    /// A message fit for the command line.
    public var description: String {
        switch self {
        case .dsidInUse: return "Datastore ID already in use"
        case .invalidDelta(let message): return message
        case .invalidUserName: return "invalid user name: it must match [A-Za-z0-9._@-]{1,64}"
        }
    }
}

/// Everything the Datastore API persists. The handlers talk only to this; `SQLiteDatastoreStore` is the
/// SQLite implementation (SQL lives only in `Store/`). Writes complete asynchronously after a durable
/// commit, so no worker thread waits for the group commit.
public protocol DatastoreStore: Sendable {
    // MARK: users and tokens
    /// The live (unrevoked) token's user, by token hash.
    func user(forTokenHash hash: String) throws -> DatastoreUser?
    /// Creates the user if needed and stores a new token hash for it (blocking; CLI and admin use).
    func issueToken(userName: String, tokenHash: String, source: String) throws -> DatastoreUser
    /// Revokes a token by hash; false when it was unknown or already revoked.
    func revokeToken(hash: String) throws -> Bool
    /// Replaces all configured static tokens with `tokens` (hash, user name), creating users in order.
    func replaceStaticTokens(_ tokens: [(hash: String, userName: String)]) throws

    // MARK: reads (one consistent read transaction each)
    /// Every datastore listed for `user`, ordered by dsid.
    func listDatastores(for user: DatastoreUser) throws -> [ListItem]
    /// The datastore `dsid` names for `user` (own private one, or the global shareable one with role ≥ viewer).
    func datastore(dsid: String, for user: DatastoreUser) throws -> DatastoreAccess?
    /// The live datastore of `handle` when `user` may see it.
    func datastore(handle: String, for user: DatastoreUser) throws -> DatastoreAccess?
    /// Access, revision and every record, from one state.
    func snapshot(handle: String, for user: DatastoreUser) throws -> (DatastoreAccess, [SnapshotRow])?
    /// Deltas from `rev`, capped.
    func deltas(handle: String, from rev: Int64, for user: DatastoreUser, cap: DeltaBatchCap) throws -> DeltaRead
    /// Runs `body` with a reader for evaluating a batch of awaits from one consistent state. The reader
    /// memoises per user and per handle, so many waiters woken by one commit cost one read each.
    func readForAwait<T>(_ body: (any AwaitStateReader) throws -> T) throws -> T

    // MARK: writes (completion after the durable commit, or with the error)
    /// `get_or_create_datastore` for a private dsid.
    func getOrCreate(dsid: String, for user: DatastoreUser,
                     completion: @escaping @Sendable (Result<CreateOutcome, any Error>) -> Void)
    /// `create_datastore` for a shareable dsid whose key was verified.
    func createShareable(dsid: String, for user: DatastoreUser,
                         completion: @escaping @Sendable (Result<CreateOutcome, any Error>) -> Void)
    /// `delete_datastore` (owner only).
    func delete(handle: String, for user: DatastoreUser,
                completion: @escaping @Sendable (Result<DeleteOutcome, any Error>) -> Void)
    /// `put_delta` steps 3–8: resolve, permission, revision/nonce check, apply, size checks, commit, publish.
    func putDelta(_ request: PutDeltaRequest, for user: DatastoreUser,
                  completion: @escaping @Sendable (Result<PutOutcome, any Error>) -> Void)
}

/// A syntactically valid `put_delta`.
public struct PutDeltaRequest: Sendable {
    /// Target handle.
    public let handle: String
    /// Base revision.
    public let rev: Int64
    /// Nonce, "" when absent.
    public let nonce: String
    /// The validated changes.
    public let delta: ParsedDelta
    /// The changes array as stored and returned (compact, values verbatim).
    public let changesJSON: String
    /// Creates a request.
    public init(handle: String, rev: Int64, nonce: String, delta: ParsedDelta, changesJSON: String) {
        self.handle = handle; self.rev = rev; self.nonce = nonce; self.delta = delta; self.changesJSON = changesJSON
    }
}

/// What await evaluations read, memoised for one batch (one read transaction).
public protocol AwaitStateReader {
    /// Reads deltas of `handle` from `rev` up front (the smallest cursor of the batch), so that the waiters
    /// watching it are answered from one query.
    func prefetch(handle: String, from rev: Int64, cap: DeltaBatchCap) throws
    /// The caller's list.
    func list(for user: DatastoreUser) throws -> [ListItem]
    /// Deltas of `handle` from `rev` for `user`, capped.
    func deltas(handle: String, from rev: Int64, for user: DatastoreUser, cap: DeltaBatchCap) throws -> DeltaRead
}
