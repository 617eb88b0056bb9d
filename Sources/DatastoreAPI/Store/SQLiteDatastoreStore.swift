import Foundation
import Storage
import Core

/// The SQLite implementation of `DatastoreStore` over the daemon's `Storage` (tables `ds_*`, migration 0003).
/// Reads borrow a pooled read-only connection inside one read transaction; writes are group-commit jobs on
/// the single writer, which also serialises every `put_delta` per handle.
public final class SQLiteDatastoreStore: DatastoreStore {
    let storage: Storage
    let limits: SizeLimits
    let teams: TeamDirectory
    /// Datastore rows as the writer committed them, so that a `put_delta` does not read the row it is about
    /// to change (about a sixth of a delta's work on the writer); write jobs only. Handles are client-made,
    /// hence the bound.
    let writerDatastores = WriterCache<DatastoreRecord>(capacity: 4096)

    /// Creates the store; the `ds_*` tables must exist (migration 0003).
    public init(storage: Storage, limits: SizeLimits, teams: TeamDirectory) {
        self.storage = storage
        self.limits = limits
        self.teams = teams
    }

    /// Unix epoch milliseconds (the schema's time unit) for `created_at`/`revoked_at`; never on the wire.
    static var now: Int64 { WallClock.nowMillis() }

    /// The datastore columns every lookup selects, joined with the owner's name.
    static let datastoreColumns = """
        SELECT d.handle, d.dsid, d.owner_uid, u.name AS owner_name, d.shareable, d.rev, d.size, d.record_count,
               d.info_json FROM ds_datastore d JOIN ds_user u ON u.uid = d.owner_uid
        """

    /// Decodes a row selected with `datastoreColumns`.
    static func decodeDatastore(_ row: Row) -> DatastoreRecord? {
        guard let handle = row["handle"].string, let dsid = row["dsid"].string, let owner = row["owner_uid"].int64,
              let rev = row["rev"].int64, let size = row["size"].int64, let count = row["record_count"].int64 else {
            return nil
        }
        return DatastoreRecord(handle: handle, dsid: dsid, ownerUid: owner, ownerName: row["owner_name"].string ?? "",
                               shareable: row["shareable"].int64 == 1, rev: rev, size: Int(size),
                               recordCount: Int(count), infoJSON: row["info_json"].string)
    }

    /// The live datastore of a handle (no access check). Malformed handles name nothing.
    static func liveDatastore(handle: String, db: Database) throws -> DatastoreRecord? {
        guard !handle.isEmpty, handle.utf8.count <= 64 else { return nil }
        return try db.queryOne(datastoreColumns + " WHERE d.handle = ? AND d.deleted = 0", [.text(handle)])
            .flatMap(decodeDatastore)
    }

    /// The caller's effective role (§7.2): owner 3000; for shareable datastores the maximum role among the
    /// `:acl` grants that match (`public`, `team`, `u<uid>`); otherwise 0.
    func effectiveRole(of user: DatastoreUser, on ds: DatastoreRecord, db: Database) throws -> Int {
        if ds.ownerUid == user.uid { return Role.owner }
        guard ds.shareable else { return 0 }
        var best = 0
        let rows = try db.query("SELECT principal, role FROM ds_grant WHERE handle = ?", [.text(ds.handle)])
        for row in rows {
            guard let principal = row["principal"].string, let role = row["role"].int64 else { continue }
            if self.principal(principal, matches: user, ownerName: ds.ownerName) { best = max(best, Int(role)) }
        }
        return best
    }

    /// Whether an `:acl` principal (`public`, `team`, `u<uid>`) names `user` on a datastore owned by `ownerName`.
    func principal(_ principal: String, matches user: DatastoreUser, ownerName: String) -> Bool {
        principal == "public" || principal == "u\(user.uid)" || (principal == "team" && teams.sameTeam(user.name, ownerName))
    }

    /// The datastore of `handle` with the caller's role, or nil when the caller may not see it (role < viewer).
    func access(handle: String, user: DatastoreUser, db: Database) throws -> DatastoreAccess? {
        guard let ds = try Self.liveDatastore(handle: handle, db: db) else { return nil }
        let role = try effectiveRole(of: user, on: ds, db: db)
        return role >= Role.viewer ? DatastoreAccess(datastore: ds, role: role) : nil
    }

    /// `access` inside a write job: the row comes from `writerDatastores` when it holds it. A row read from
    /// the database is remembered once the transaction has committed (it may hold an earlier job's change).
    func writerAccess(handle: String, user: DatastoreUser, ctx: WriteContext) throws -> DatastoreAccess? {
        let ds: DatastoreRecord
        if let cached = writerDatastores.value(handle) {
            ds = cached
        } else {
            guard let read = try Self.liveDatastore(handle: handle, db: ctx.db) else { return nil }
            ds = read
            writerDatastores.remember(read, for: handle, after: ctx)
        }
        let role = try effectiveRole(of: user, on: ds, db: ctx.db)
        return role >= Role.viewer ? DatastoreAccess(datastore: ds, role: role) : nil
    }

    /// uids named by `u<uid>` grants of a datastore (whose list tokens change with it).
    static func grantedUids(handle: String, db: Database) throws -> [Int64] {
        try db.query("SELECT principal FROM ds_grant WHERE handle = ?", [.text(handle)])
            .compactMap { $0["principal"].string.flatMap(AclRules.userPrincipal) }
    }

    /// Runs `body` on a pooled read connection inside one read transaction (a consistent snapshot).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try storage.read { db in try body(db) }
    }
}
