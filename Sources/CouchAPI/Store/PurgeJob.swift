import Core
import Storage

/// The revisions a `_purge` request names for one document.
public struct PurgeRequest: Sendable, Hashable {
    /// The document id.
    public let id: String
    /// The revisions to purge (leaves count; others are ignored).
    public let revs: [RevID]

    /// A request entry.
    public init(id: String, revs: [RevID]) {
        self.id = id
        self.revs = revs
    }
}

/// What a `_purge` did.
public struct PurgeResult: Sendable, Hashable {
    /// The database's `purge_seq` after the request.
    public let purgeSeq: Int64
    /// Per requested document, in request order: the leaves actually purged (possibly none).
    public let purged: [PurgeRequest]
}

extension SQLiteCouchStore {
    public func purge(database: String, requests: [PurgeRequest],
                      completion: @escaping @Sendable (Result<PurgeResult, any Error>) -> Void) {
        let blobs = self.blobs
        let epoch = accessEpoch
        let changesAccess = Self.changesAccess(database: database, ids: requests.lazy.map(\.id))
        storage.write({ ctx in
            if changesAccess { ctx.afterCommit { epoch.advance() } }
            return try PurgeJob.run(ctx: ctx, blobs: blobs, database: database, requests: requests)
        },
                      completion: completion)
    }
}

/// `_purge` in one writer job (§3.12): purged leaves and their unshared ancestors leave the tree with their
/// bodies and attachment references. A document left without leaves disappears (row, counts, changes); one
/// that keeps leaves gets a new sequence number and, when it changed, a new winner copy.
enum PurgeJob {
    static func run(ctx: WriteContext, blobs: BlobStore, database: String, requests: [PurgeRequest]) throws -> PurgeResult {
        guard let row = try ctx.db.queryOne("SELECT db_id, update_seq, purge_seq FROM couch_databases WHERE name = ?",
                                            [.text(database)]),
              let databaseID = row[0].int64, let startSeq = row[1].int64, let startPurgeSeq = row[2].int64 else {
            throw CouchError.databaseMissing
        }
        var updateSeq = startSeq
        var docDelta: Int64 = 0, delDelta: Int64 = 0, externalDelta: Int64 = 0, activeDelta: Int64 = 0
        var results: [PurgeRequest] = []
        results.reserveCapacity(requests.count)
        for request in requests {
            guard let doc = try ctx.db.queryOne("""
                SELECT doc_rowid, rev, deleted, size, tree FROM couch_docs WHERE db_id = ? AND doc_id = ?
                """, [.integer(databaseID), .text(request.id)]),
                  let rowID = doc[0].int64, let size = doc[3].int64, let treeBytes = doc[4].bytes else {
                results.append(PurgeRequest(id: request.id, revs: []))
                continue
            }
            var tree: RevTree
            do { tree = try RevTree(encoded: treeBytes) } catch { throw CouchStoreError.corrupt("revision tree: \(error)") }
            let oldWinner = doc[1].string
            let wasDeleted = doc[2].int64 != 0
            let (purged, removed) = tree.purge(request.revs)
            results.append(PurgeRequest(id: request.id, revs: purged))
            guard !purged.isEmpty else { continue }
            activeDelta -= try RevisionRows.remove(removed, documentRowID: rowID, ctx: ctx, blobs: blobs)
            if wasDeleted { delDelta -= 1 } else { docDelta -= 1 }
            guard let winner = tree.winner else {
                // No leaf left: the document is gone, as if it had never been written.
                try ctx.db.run("DELETE FROM couch_docs WHERE doc_rowid = ?", [.integer(rowID)])
                externalDelta -= size
                activeDelta -= Int64(treeBytes.count)
                continue
            }
            if winner.deleted { delDelta += 1 } else { docDelta += 1 }
            updateSeq += 1
            let encoded = tree.encoded()
            activeDelta += Int64(encoded.count - treeBytes.count)
            if winner.rev.description == oldWinner {
                try ctx.db.run("UPDATE couch_docs SET seq = ?, tree = ? WHERE doc_rowid = ?",
                               [.integer(updateSeq), .blob(encoded), .integer(rowID)])
                continue
            }
            guard let stored = try SQLiteCouchReader(db: ctx.db).revision(documentRowID: rowID, rev: winner.rev) else {
                throw CouchStoreError.corrupt("a leaf without a stored body")
            }
            let newSize = Int64(stored.body.count) + stored.attachments.reduce(Int64(0)) { $0 + $1.length }
            externalDelta += newSize - size
            try ctx.db.run("""
                UPDATE couch_docs SET seq = ?, rev = ?, deleted = ?, body = ?, atts = ?, size = ?, tree = ? WHERE doc_rowid = ?
                """, [.integer(updateSeq), .text(winner.rev.description), .integer(winner.deleted ? 1 : 0),
                      .text(String(decoding: stored.body, as: UTF8.self)),
                      AttachmentJSON.stubsText(stored.attachments).map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null,
                      .integer(newSize), .blob(encoded), .integer(rowID)])
        }
        // purge_seq counts the requests that purged something (Decision §3.12).
        let purgedAny = results.contains { !$0.revs.isEmpty }
        let purgeSeq = purgedAny ? startPurgeSeq + 1 : startPurgeSeq
        if purgedAny {
            try ctx.db.run("""
                UPDATE couch_databases SET update_seq = ?, purge_seq = ?, doc_count = doc_count + ?,
                       doc_del_count = doc_del_count + ?, external_size = external_size + ?, active_size = active_size + ?
                WHERE db_id = ?
                """, [.integer(updateSeq), .integer(purgeSeq), .integer(docDelta), .integer(delDelta),
                      .integer(externalDelta), .integer(activeDelta), .integer(databaseID)])
        }
        if updateSeq != startSeq {
            ctx.publish(ChangeEvent(topic: CouchTopics.database(databaseID), sequence: updateSeq))
        }
        return PurgeResult(purgeSeq: purgeSeq, purged: results)
    }
}
