import Core
import Storage

/// One element of a `_bulk_docs` request (spec §3.7): a document edit, or a write of a `_local` document,
/// which has no tree and no conflict check (§3.4).
public enum BulkEdit: Sendable {
    /// An interactive or replicated document edit.
    case document(DocumentEdit)
    /// `_local` document `id` written with revision number `rev` and `body`, or deleted when `body` is nil.
    case local(id: String, rev: Int64, body: [UInt8]?)

    /// Whether this is a `_local` document write.
    public var isLocal: Bool {
        if case .local = self { return true }
        return false
    }
}

extension SQLiteCouchStore {
    public func apply(database: String, bulk: [BulkEdit],
                      completion: @escaping @Sendable (Result<[EditOutcome], any Error>) -> Void) {
        let blobs = self.blobs
        let epoch = accessEpoch
        let changesAccess = Self.changesAccess(database: database, ids: bulk.lazy.compactMap { element -> String? in
            if case .document(let edit) = element { return edit.id }
            return nil
        })
        // The job takes the edits out of this box and hands them back with its outcomes, so that they are
        // freed on the completion queue after the commit instead of by the writer thread (about 1,500
        // instructions of releases per document of a 500-document request).
        let handOff = Locked(bulk)
        storage.write({ ctx -> (outcomes: [EditOutcome], edits: [BulkEdit]) in
            let bulk = handOff.withLock { edits -> [BulkEdit] in
                defer { edits = [] }
                return edits
            }
            // One job, so one transaction: every successful element commits together (§5.10).
            var job = try EditJob(ctx: ctx, blobs: blobs, database: database)
            if changesAccess { ctx.afterCommit { epoch.advance() } }
            var outcomes: [EditOutcome] = []
            outcomes.reserveCapacity(bulk.count)
            var index = 0
            while index < bulk.count {
                // A run of new documents from a replicator goes in with multi-row statements.
                if let written = try job.insertNewDocuments(bulk, from: index) {
                    outcomes.append(contentsOf: written)
                    index += written.count
                    continue
                }
                switch bulk[index] {
                case .document(let edit): outcomes.append(try job.apply(edit))
                case .local(let id, let rev, let body): outcomes.append(try job.writeLocal(id: id, rev: rev, body: body))
                }
                index += 1
            }
            try job.finish()
            return (outcomes, bulk)
        }, completion: { result in completion(result.map(\.outcomes)) })
    }
}

extension EditJob {
    /// Writes (or, without a body, deletes) a `_local` document inside the job. Local documents take no
    /// sequence number (§5.8). The revision is `0-{rev}`, `0-0` for a deletion; deleting an unknown one is
    /// 404 "missing", as `DELETE` answers.
    func writeLocal(id: String, rev: Int64, body: [UInt8]?) throws -> EditOutcome {
        guard let body else {
            let deleted = try ctx.db.run("DELETE FROM couch_local_docs WHERE db_id = ? AND doc_id = ?",
                                         [.integer(databaseID), .text(id)])
            guard deleted == 1 else { return .failed(.missing) }
            return .ok(try RevID(parsing: LocalRevision.deletedText))
        }
        try ctx.db.run("""
            INSERT INTO couch_local_docs (db_id, doc_id, rev, body) VALUES (?, ?, ?, ?)
            ON CONFLICT (db_id, doc_id) DO UPDATE SET rev = excluded.rev, body = excluded.body
            """, [.integer(databaseID), .text(id), .integer(rev), .text(String(decoding: body, as: UTF8.self))])
        return .ok(try RevID(parsing: LocalRevision.text(rev)))
    }
}
