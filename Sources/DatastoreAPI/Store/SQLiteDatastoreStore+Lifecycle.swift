import Storage
import Core

/// Creating and deleting datastores. Each runs as one write job, so concurrent creations of one dsid are
/// serialised by the writer: exactly one sees "absent" and creates.
extension SQLiteDatastoreStore {
    /// A new handle: 16 dbase64 characters from 12 CSPRNG bytes. Handles are never reused because rows of
    /// deleted datastores are kept (marked deleted) and `handle` is the primary key.
    static func newHandle() -> String { DBase64.encode(Crypto.randomBytes(12)) }

    /// Returns the caller's live datastore of that dsid or creates it, on the writer.
    public func getOrCreate(dsid: String, for user: DatastoreUser,
                            completion: @escaping @Sendable (Result<CreateOutcome, any Error>) -> Void) {
        storage.write({ ctx in
            if let ds = try ctx.db.queryOne(Self.datastoreColumns
                                            + " WHERE d.owner_uid = ? AND d.dsid = ? AND d.shareable = 0 AND d.deleted = 0",
                                            [.integer(user.uid), .text(dsid)]).flatMap(Self.decodeDatastore) {
                return CreateOutcome(handle: ds.handle, rev: ds.rev, created: false)
            }
            let handle = try Self.insertDatastore(dsid: dsid, owner: user.uid, shareable: false, db: ctx.db)
            DatastoreTopics.publish(handle: handle, rev: 0, uids: [user.uid], in: ctx)
            return CreateOutcome(handle: handle, rev: 0, created: true)
        }, completion: completion)
    }

    /// Creates a shareable datastore, or returns the caller's own on a retry.
    public func createShareable(dsid: String, for user: DatastoreUser,
                                completion: @escaping @Sendable (Result<CreateOutcome, any Error>) -> Void) {
        storage.write({ ctx in
            if let ds = try ctx.db.queryOne(Self.datastoreColumns + " WHERE d.dsid = ? AND d.shareable = 1 AND d.deleted = 0",
                                            [.text(dsid)]).flatMap(Self.decodeDatastore) {
                guard ds.ownerUid == user.uid else { throw DatastoreStoreError.dsidInUse }
                return CreateOutcome(handle: ds.handle, rev: ds.rev, created: false)
            }
            let handle = try Self.insertDatastore(dsid: dsid, owner: user.uid, shareable: true, db: ctx.db)
            DatastoreTopics.publish(handle: handle, rev: 0, uids: [user.uid], in: ctx)
            return CreateOutcome(handle: handle, rev: 0, created: true)
        }, completion: completion)
    }

    /// Inserts an empty datastore at rev 0 (size 1000: the datastore's own overhead).
    static func insertDatastore(dsid: String, owner: Int64, shareable: Bool, db: Database) throws -> String {
        let handle = newHandle()
        try db.run("""
            INSERT INTO ds_datastore(handle, dsid, owner_uid, shareable, rev, size, record_count, info_json, deleted, created_at)
            VALUES (?, ?, ?, ?, 0, 1000, 0, NULL, 0, ?)
            """, [.text(handle), .text(dsid), .integer(owner), .integer(shareable ? 1 : 0), .integer(now)])
        return handle
    }

    /// Deletes (owner only): kills the handle, purges records and log, wakes watchers.
    public func delete(handle: String, for user: DatastoreUser,
                       completion: @escaping @Sendable (Result<DeleteOutcome, any Error>) -> Void) {
        storage.write({ [self] ctx in
            guard let access = try access(handle: handle, user: user, db: ctx.db) else { return DeleteOutcome.notFound }
            guard access.role == Role.owner else { return .accessDenied }
            // Everyone who listed it must see their list token change, before the grants are purged.
            let uids = [access.datastore.ownerUid] + (try Self.grantedUids(handle: handle, db: ctx.db))
            try ctx.db.run("UPDATE ds_datastore SET deleted = 1 WHERE handle = ?", [.text(handle)])
            writerDatastores.forget(handle, in: ctx)
            try ctx.db.run("DELETE FROM ds_record WHERE handle = ?", [.text(handle)])
            try ctx.db.run("DELETE FROM ds_delta WHERE handle = ?", [.text(handle)])
            try ctx.db.run("DELETE FROM ds_grant WHERE handle = ?", [.text(handle)])
            DatastoreTopics.publish(handle: handle, rev: .max, uids: uids, in: ctx)
            return .deleted
        }, completion: completion)
    }
}
