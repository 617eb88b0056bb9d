import Storage
import Core

/// `put_delta` as one write job: the single writer makes the revision check, the application and the
/// commit atomic per handle. Any failure throws before the first write, and a throwing job rolls back
/// its savepoint anyway, so a delta is stored entirely or not at all.
extension SQLiteDatastoreStore {
    /// Runs steps 3–8 of `put_delta` as one write job; completes after the durable commit.
    public func putDelta(_ request: PutDeltaRequest, for user: DatastoreUser,
                         completion: @escaping @Sendable (Result<PutOutcome, any Error>) -> Void) {
        storage.write({ [self] ctx in try putDeltaJob(request, user: user, ctx: ctx) }, completion: completion)
    }

    /// Steps 3–8 of §6.8 on the writer thread.
    func putDeltaJob(_ request: PutDeltaRequest, user: DatastoreUser, ctx: WriteContext) throws -> PutOutcome {
        let db = ctx.db
        guard let access = try writerAccess(handle: request.handle, user: user, ctx: ctx) else { return .notFound }
        // Permission is decided against the ACL as it was before this delta.
        guard access.role >= Role.editor else { return .accessDenied }
        let ds = access.datastore
        if request.rev != ds.rev {
            if request.rev < ds.rev, !request.nonce.isEmpty,
               let row = try db.queryOne("SELECT nonce FROM ds_delta WHERE handle = ? AND rev = ?",
                                         [.text(ds.handle), .integer(request.rev)]),
               row["nonce"].string == request.nonce {
                // The same writer retrying a delta that was stored: answer as the first time, store nothing.
                return .retried(rev: request.rev + 1)
            }
            return .conflict(rev: request.rev, current: ds.rev)
        }

        // The delta's size depends on the request alone. Checked before applying (§5.8 lists it last), so
        // that a delta the limits refuse anyway does not first run all its changes on the writer.
        if request.delta.size > limits.delta {
            throw DatastoreStoreError.invalidDelta("delta too large: \(request.delta.size) bytes")
        }
        var copy = WorkingCopy { key in try Self.loadRecord(handle: ds.handle, key: key, db: db) }
        do {
            try DeltaApplier.apply(request.delta.changes, to: &copy) { index, change in
                try AclRules.checkChange(index: index, change: change, shareable: ds.shareable, ownerUid: ds.ownerUid)
            }
            try AclRules.checkFinal(copy) { uid in try Self.userExists(uid, db: db) }
        } catch let error as ApplyError {
            throw DatastoreStoreError.invalidDelta(error.message)
        }
        let sizes: SizeOutcome
        do {
            sizes = try SizeCheck.check(copy, deltaSize: request.delta.size, datastoreSize: ds.size,
                                        recordCount: ds.recordCount, limits: limits)
        } catch {
            throw DatastoreStoreError.invalidDelta(error.message)
        }

        // Only shareable datastores hold :acl records (checkChange refuses them elsewhere), so a private one
        // has no grants to look up.
        let uidsBefore = ds.shareable ? try Self.grantedUids(handle: ds.handle, db: db) : []
        try persist(copy, sizes: sizes, handle: ds.handle, db: db)
        // The stored rev is read back from disk: a damaged row holding Int64.max must fail this delta,
        // not overflow.
        let (newRev, revOverflow) = ds.rev.addingReportingOverflow(1)
        guard !revOverflow else { throw StorageError.corrupt("ds_datastore rev of \(ds.handle) is at its maximum") }
        try db.run("INSERT INTO ds_delta(handle, rev, changes_json, nonce) VALUES (?, ?, ?, ?)",
                   [.text(ds.handle), .integer(ds.rev), .text(request.changesJSON), .text(request.nonce)])
        var infoJSON = ds.infoJSON
        let infoKey = RecordKey(tid: ":info", rid: "info")
        if let info = copy[infoKey] { infoJSON = info.fields.map { JSONWriter.serialize(.object($0)) } }
        try db.run("UPDATE ds_datastore SET rev = ?, size = ?, record_count = ?, info_json = ? WHERE handle = ?",
                   [.integer(newRev), .integer(Int64(sizes.datastoreSize)), .integer(Int64(sizes.recordCount)),
                    infoJSON.map { .text($0) } ?? .null, .text(ds.handle)])
        // The row as this delta leaves it, for the next delta once this transaction has committed.
        let updated = DatastoreRecord(handle: ds.handle, dsid: ds.dsid, ownerUid: ds.ownerUid, ownerName: ds.ownerName,
                                      shareable: ds.shareable, rev: newRev, size: sizes.datastoreSize,
                                      recordCount: sizes.recordCount, infoJSON: infoJSON)
        writerDatastores.forget(ds.handle, in: ctx)
        writerDatastores.remember(updated, for: ds.handle, after: ctx)
        // Wake the handle's watchers and the list waiters of everyone named before or after the delta.
        let touchedUids = copy.order.filter { $0.tid == AclRules.table }.compactMap { AclRules.userPrincipal($0.rid) }
        DatastoreTopics.publish(handle: ds.handle, rev: newRev, uids: [ds.ownerUid] + uidsBefore + touchedUids, in: ctx)
        return .committed(rev: newRev)
    }

    /// Writes the final state of every touched record and keeps `ds_grant` in step with `:acl`.
    private func persist(_ copy: WorkingCopy, sizes: SizeOutcome, handle: String, db: Database) throws {
        for (position, (key, record)) in copy.touched.enumerated() where record.lastChange >= 0 {
            if let fields = record.fields {
                try db.run("INSERT OR REPLACE INTO ds_record(handle, tid, rid, fields_json, size) VALUES (?, ?, ?, ?, ?)",
                           [.text(handle), .text(key.tid), .text(key.rid), .text(JSONWriter.serialize(.object(fields))),
                            .integer(Int64(sizes.recordSize(at: position) ?? Values.recordSize(fields)))])
            } else if record.before != nil {
                try db.run("DELETE FROM ds_record WHERE handle = ? AND tid = ? AND rid = ?",
                           [.text(handle), .text(key.tid), .text(key.rid)])
            }
            guard key.tid == AclRules.table else { continue }
            if let role = record.fields?["role"].flatMap(AclRules.grantedRole) {
                try db.run("INSERT OR REPLACE INTO ds_grant(handle, principal, role) VALUES (?, ?, ?)",
                           [.text(handle), .text(key.rid), .integer(Int64(role))])
            } else {
                try db.run("DELETE FROM ds_grant WHERE handle = ? AND principal = ?", [.text(handle), .text(key.rid)])
            }
        }
    }

    /// A stored record's fields and size.
    static func loadRecord(handle: String, key: RecordKey, db: Database) throws -> (fields: JSONObject, size: Int)? {
        // Read off the statement (no Row, no String for the text): every delta loads each record it touches,
        // and inserting a new record finds none.
        var parsed: JSON?
        var size: Int64?
        try db.forEachRow("SELECT fields_json, size FROM ds_record WHERE handle = ? AND tid = ? AND rid = ?",
                          [.text(handle), .text(key.tid), .text(key.rid)]) { row in
            size = row.int64(1)
            if let text = row.text(0) { parsed = try JSONParser.parse(buffer: text, options: StoredJSON.options) }
            return false
        }
        guard let parsed, let size else { return nil }
        guard case .object(let fields) = parsed else { throw StorageError.corrupt("ds_record fields are not an object") }
        return (fields, Int(size))
    }
}

/// Parse options for JSON the store wrote itself.
enum StoredJSON {
    static var options: JSONParseOptions {
        var o = JSONParseOptions()
        o.maxDepth = 64
        o.maxBytes = 64 << 20
        return o
    }
}
