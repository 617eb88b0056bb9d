import Storage

/// Read paths: list, lookups, snapshot, deltas and the await evaluation state.
extension SQLiteDatastoreStore {
    /// The caller's list, by dsid, from one read transaction.
    public func listDatastores(for user: DatastoreUser) throws -> [ListItem] {
        try read { db in try list(for: user, db: db) }
    }

    /// Owned datastores plus shareable ones granted through `u<uid>` (not `public`/`team`), by dsid.
    func list(for user: DatastoreUser, db: Database) throws -> [ListItem] {
        let rows = try db.query(Self.datastoreColumns + """
             WHERE d.deleted = 0 AND (d.owner_uid = ?1 OR (d.shareable = 1 AND d.handle IN
               (SELECT handle FROM ds_grant WHERE principal = ?2 AND role >= 1000)))
             ORDER BY d.dsid
            """, [.integer(user.uid), .text("u\(user.uid)")])
        var items: [ListItem] = []
        for row in rows {
            guard let ds = Self.decodeDatastore(row) else { continue }
            var role: Int?
            if ds.shareable { role = try effectiveRole(of: user, on: ds, db: db) }
            items.append(ListItem(dsid: ds.dsid, handle: ds.handle, rev: ds.rev, infoJSON: ds.infoJSON, role: role))
        }
        return items
    }

    /// The datastore a dsid names for the caller, with the caller's role.
    public func datastore(dsid: String, for user: DatastoreUser) throws -> DatastoreAccess? {
        try read { db in
            if Identifiers.isShareableDsid(dsid) {
                guard let ds = try db.queryOne(Self.datastoreColumns + " WHERE d.dsid = ? AND d.shareable = 1 AND d.deleted = 0",
                                               [.text(dsid)]).flatMap(Self.decodeDatastore) else { return nil }
                let role = try effectiveRole(of: user, on: ds, db: db)
                return role >= Role.viewer ? DatastoreAccess(datastore: ds, role: role) : nil
            }
            return try db.queryOne(Self.datastoreColumns
                                   + " WHERE d.owner_uid = ? AND d.dsid = ? AND d.shareable = 0 AND d.deleted = 0",
                                   [.integer(user.uid), .text(dsid)])
                .flatMap(Self.decodeDatastore).map { DatastoreAccess(datastore: $0, role: Role.owner) }
        }
    }

    /// The live datastore of a handle when the caller may see it.
    public func datastore(handle: String, for user: DatastoreUser) throws -> DatastoreAccess? {
        try read { db in try access(handle: handle, user: user, db: db) }
    }

    /// Access, rev and every record from one read transaction.
    public func snapshot(handle: String, for user: DatastoreUser) throws -> (DatastoreAccess, [SnapshotRow])? {
        try read { db in
            guard let access = try access(handle: handle, user: user, db: db) else { return nil }
            var rows: [SnapshotRow] = []
            // The stored count is only a hint: capped by the record limit so that a damaged row cannot
            // ask for an impossible allocation.
            rows.reserveCapacity(max(0, min(access.datastore.recordCount, limits.records)))
            try db.forEach("SELECT tid, rid, fields_json FROM ds_record WHERE handle = ? ORDER BY tid, rid",
                           [.text(handle)]) { row in
                if let tid = row[0].string, let rid = row[1].string, let fields = row[2].string {
                    rows.append(SnapshotRow(tid: tid, rid: rid, fieldsJSON: fields))
                }
                return true
            }
            return (access, rows)
        }
    }

    /// Contiguous deltas from `rev`, capped, from one read transaction.
    public func deltas(handle: String, from rev: Int64, for user: DatastoreUser, cap: DeltaBatchCap) throws -> DeltaRead {
        try read { db in try deltaRead(handle: handle, from: rev, user: user, cap: cap, db: db) }
    }

    /// Deltas `rev..<current` as a contiguous prefix within the cap (at least one when any exist).
    func deltaRead(handle: String, from rev: Int64, user: DatastoreUser, cap: DeltaBatchCap, db: Database) throws -> DeltaRead {
        guard let access = try access(handle: handle, user: user, db: db) else { return .notFound }
        let current = access.datastore.rev
        guard rev <= current else { return .ahead(current: current) }
        guard rev < current else { return .deltas([], access: access) }
        var result: [StoredDelta] = []
        var bytes = 0
        try db.forEach("SELECT rev, changes_json, nonce FROM ds_delta WHERE handle = ? AND rev >= ? ORDER BY rev LIMIT ?",
                       [.text(handle), .integer(rev), .integer(Int64(max(1, cap.maxDeltas)))]) { row in
            guard let r = row[0].int64, let changes = row[1].string, let nonce = row[2].string else { return false }
            let size = changes.utf8.count
            if !result.isEmpty && bytes + size > cap.maxBytes { return false }
            bytes += size
            result.append(StoredDelta(rev: r, changesJSON: changes, nonce: nonce))
            return true
        }
        return .deltas(result, access: access)
    }
}
