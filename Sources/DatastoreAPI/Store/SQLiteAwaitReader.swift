import Storage

extension SQLiteDatastoreStore {
    /// Runs `body` with a memoising reader inside one read transaction.
    public func readForAwait<T>(_ body: (any AwaitStateReader) throws -> T) throws -> T {
        try read { db in try body(SQLiteAwaitReader(store: self, db: db)) }
    }
}

/// `AwaitStateReader` over one read transaction. Datastore rows, grants, lists and delta logs are read at
/// most once per batch; a waiter whose cursor lies beyond what was prefetched falls back to its own query.
final class SQLiteAwaitReader: AwaitStateReader {
    private let store: SQLiteDatastoreStore
    private let db: Database
    private var lists: [Int64: [ListItem]] = [:]
    private var datastores: [String: DatastoreRecord?] = [:]
    private var grants: [String: [(principal: String, role: Int)]] = [:]
    private var logs: [String: [StoredDelta]] = [:]

    init(store: SQLiteDatastoreStore, db: Database) {
        self.store = store
        self.db = db
    }

    func prefetch(handle: String, from rev: Int64, cap: DeltaBatchCap) throws {
        guard let ds = try datastore(handle), rev < ds.rev else { return }
        // Read as the owner: access is decided per waiter from the memoised grants.
        let owner = DatastoreUser(uid: ds.ownerUid, name: ds.ownerName)
        if case .deltas(let deltas, _) = try store.deltaRead(handle: handle, from: rev, user: owner, cap: cap, db: db) {
            logs[handle] = deltas
        }
    }

    func list(for user: DatastoreUser) throws -> [ListItem] {
        if let cached = lists[user.uid] { return cached }
        let items = try store.list(for: user, db: db)
        lists[user.uid] = items
        return items
    }

    func deltas(handle: String, from rev: Int64, for user: DatastoreUser, cap: DeltaBatchCap) throws -> DeltaRead {
        guard let ds = try datastore(handle) else { return .notFound }
        let role = try role(of: user, on: ds)
        guard role >= Role.viewer else { return .notFound }
        let access = DatastoreAccess(datastore: ds, role: role)
        guard rev <= ds.rev else { return .ahead(current: ds.rev) }
        guard rev < ds.rev else { return .deltas([], access: access) }
        if let log = logs[handle], let first = log.first, first.rev <= rev {
            // The prefetched log is a capped prefix from a smaller cursor, so its tail from `rev` is too.
            let tail = log.drop { $0.rev < rev }
            if !tail.isEmpty { return .deltas(Array(tail), access: access) }
        }
        return try store.deltaRead(handle: handle, from: rev, user: user, cap: cap, db: db)
    }

    private func datastore(_ handle: String) throws -> DatastoreRecord? {
        if let cached = datastores[handle] { return cached }
        let ds = try SQLiteDatastoreStore.liveDatastore(handle: handle, db: db)
        datastores[handle] = .some(ds)
        return ds
    }

    /// The effective role (§7.2) from grants read once per handle.
    private func role(of user: DatastoreUser, on ds: DatastoreRecord) throws -> Int {
        if ds.ownerUid == user.uid { return Role.owner }
        guard ds.shareable else { return 0 }
        let rows: [(principal: String, role: Int)]
        if let cached = grants[ds.handle] {
            rows = cached
        } else {
            rows = try db.query("SELECT principal, role FROM ds_grant WHERE handle = ?", [.text(ds.handle)]).compactMap { row in
                guard let principal = row["principal"].string, let role = row["role"].int64 else { return nil }
                return (principal, Int(role))
            }
            grants[ds.handle] = rows
        }
        var best = 0
        for grant in rows where store.principal(grant.principal, matches: user, ownerName: ds.ownerName) {
            best = max(best, grant.role)
        }
        return best
    }
}
