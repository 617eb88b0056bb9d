import Core
import Storage

extension SQLiteCouchStore {
    public func apply(database: String, edits: [DocumentEdit],
                      completion: @escaping @Sendable (Result<[EditOutcome], any Error>) -> Void) {
        let blobs = self.blobs
        let epoch = accessEpoch
        let changesAccess = Self.changesAccess(database: database, ids: edits.lazy.map(\.id))
        storage.write({ ctx in
            var job = try EditJob(ctx: ctx, blobs: blobs, database: database)
            if changesAccess { ctx.afterCommit { epoch.advance() } }
            let outcomes = try edits.map { try job.apply($0) }
            try job.finish()
            return outcomes
        }, completion: completion)
    }
}

/// One write job applying document edits to one database (§5.3, §5.4, §5.10). Runs on the writer thread
/// inside the job's savepoint. Each edit is decided completely (tree, stubs, revision id) before any of its
/// rows are written, so a refused edit leaves nothing behind without a savepoint of its own.
struct EditJob {
    let ctx: WriteContext
    let blobs: BlobStore
    let databaseID: Int64
    let revsLimit: Int
    /// The database's counters as this job leaves them.
    private(set) var updateSeq: Int64
    private var startSeq: Int64
    private var docCountDelta: Int64 = 0
    private var delCountDelta: Int64 = 0
    private var externalDelta: Int64 = 0
    private var activeDelta: Int64 = 0
    /// False once a multi-row insert of new documents met a stored id (`EditJob+NewDocuments.swift`): the
    /// rest of the job then goes one document at a time, so a request of existing documents pays for
    /// at most one failed batch.
    var batchesNewDocuments = true

    /// Loads the database, or throws 404 "Database does not exist." (deleted after the request's check).
    init(ctx: WriteContext, blobs: BlobStore, database: String) throws {
        self.ctx = ctx
        self.blobs = blobs
        var found: (id: Int64, seq: Int64, limit: Int64)?
        try ctx.db.forEachRow("SELECT db_id, update_seq, revs_limit FROM couch_databases WHERE name = ?",
                              [.text(database)]) { row in
            if let id = row.int64(0), let seq = row.int64(1), let limit = row.int64(2) { found = (id, seq, limit) }
            return false
        }
        guard let found else { throw CouchError.databaseMissing }
        databaseID = found.id
        updateSeq = found.seq
        startSeq = found.seq
        revsLimit = Int(clamping: found.limit)
    }

    /// The document row an edit starts from.
    private struct Existing {
        let rowID: Int64
        let tree: RevTree
        let winner: RevID
        let deleted: Bool
        let size: Int64
        let treeBytes: Int
    }

    /// Applies one edit; refusals are outcomes, storage failures throw (failing the whole job).
    mutating func apply(_ edit: DocumentEdit) throws -> EditOutcome {
        if case .replicated(let path) = edit.mode, edit.attachments.isEmpty, let revText = edit.revisionText,
           try insertNew(edit, path: path, revText: revText) {
            return .ok(path.newest)
        }
        // A create (no revision named, no attachments, not a deletion) of a document that does not exist yet,
        // what a `PUT` of a new document is: the revision is the one computed before the write, its tree is
        // that revision alone (what `addInteractive` gives in an empty tree), and the row's insert is the
        // existence check, as for a replicated one. An existing id (a conflict or a re-creation) takes the
        // general path below.
        if case .interactive(requested: nil) = edit.mode, !edit.deleted, edit.attachments.isEmpty,
           let rev = edit.speculativeRev, rev.generation == 1,
           try insertNew(edit, path: RevPath(single: rev), revText: rev.description) {
            return .ok(rev)
        }
        let existing = try load(edit.id)
        var tree = existing?.tree ?? RevTree()
        let seq = updateSeq + 1
        let rev: RevID
        let attachments: [StoredAttachment]
        switch edit.mode {
        case .interactive(let requested):
            let parent: RevNode?
            do {
                parent = try tree.interactiveParent(requested: requested, deleting: edit.deleted)
            } catch {
                return .failed(error)
            }
            let generation = (parent?.rev.generation ?? 0) + 1
            // Stubs refer to the revision the request named; a create or a re-creation names none (§5.6).
            let reference = requested == nil ? nil : parent?.rev
            switch try resolve(edit, reference: reference, rowID: existing?.rowID, generation: generation, keepRevpos: false) {
            case .failure(let error): return .failed(error)
            case .success(let list): attachments = list
            }
            if let speculative = edit.speculativeRev, parent?.rev == requested {
                rev = speculative
            } else {
                let entries = attachments.compactMap(\.hashEntry)
                guard entries.count == attachments.count else { throw CouchStoreError.corrupt("attachment digest") }
                do {
                    rev = try RevisionHash.newRevID(parent: parent?.rev, deleted: edit.deleted, body: edit.hashedBody,
                                                    attachments: entries)
                } catch {
                    return .failed(error)
                }
            }
            do {
                try tree.addInteractive(rev, parent: parent?.rev, deleted: edit.deleted, seq: seq)
            } catch {
                return .failed(error)
            }
        case .replicated(let path):
            rev = path.newest
            let reference = tree.stubReference(for: path)
            switch try resolve(edit, reference: reference, rowID: existing?.rowID, generation: rev.generation, keepRevpos: true) {
            case .failure(let error): return .failed(error)
            case .success(let list): attachments = list
            }
            // A revision already known (with or without a body) is a success that changes nothing (§5.4).
            if tree.mergeReplicated(path, deleted: edit.deleted, seq: seq) == .alreadyPresent { return .ok(rev) }
        }
        let removed = tree.stem(limit: revsLimit)
        try store(edit, rev: rev, attachments: attachments, tree: tree, existing: existing, removed: removed, seq: seq)
        updateSeq = seq
        return .ok(rev)
    }

    /// A replicated edit of a document that does not exist yet, what a replicator pushes most (§5.4): the
    /// tree is the path alone (stemmed), its newest revision the winner. The row's insert is the existence
    /// check (`DO NOTHING` when the id is taken), so a new document costs two statements and no lookup;
    /// false when the document exists (then nothing was written and no sequence number was used, and the
    /// general path merges the edit into the stored tree). Edits with attachments take the general path.
    private mutating func insertNew(_ edit: DocumentEdit, path: RevPath, revText: String) throws -> Bool {
        let seq = updateSeq + 1
        let treeBytes = RevTree.encodedNewPath(path, deleted: edit.deleted, seq: seq, limit: revsLimit)
        let size = Int64(edit.bodyText.count)
        let bodyText = SQLValue.text(edit.bodyString)
        let inserted = try ctx.db.run("""
            INSERT INTO couch_docs (db_id, doc_id, seq, rev, deleted, body, atts, size, tree)
            VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?) ON CONFLICT (db_id, doc_id) DO NOTHING
            """, [.integer(databaseID), .text(edit.id), .integer(seq), .text(revText),
                  .integer(edit.deleted ? 1 : 0), bodyText, .integer(size), .blob(treeBytes)])
        guard inserted == 1 else { return false }
        try ctx.db.run("INSERT INTO couch_revs (doc_rowid, rev, deleted, body, att_count) VALUES (?, ?, ?, ?, 0)",
                       [.integer(ctx.db.lastInsertRowID), .text(revText), .integer(edit.deleted ? 1 : 0), bodyText])
        externalDelta += size
        activeDelta += Int64(treeBytes.count) + size
        if edit.deleted { delCountDelta += 1 } else { docCountDelta += 1 }
        updateSeq = seq
        return true
    }

    /// Counts `count` new documents written with consecutive sequence numbers after the current one.
    mutating func recordNewDocuments(count: Int64, live: Int64, external: Int64, active: Int64) {
        updateSeq += count
        docCountDelta += live
        delCountDelta += count - live
        externalDelta += external
        activeDelta += active
    }

    /// Writes the outcome of an edit: the document row (with the winner's copy when it changed), the new
    /// revision's body and attachments, and the removal of stemmed revisions.
    private mutating func store(_ edit: DocumentEdit, rev: RevID, attachments: [StoredAttachment], tree: RevTree,
                                existing: Existing?, removed: [RevID], seq: Int64) throws {
        guard let winner = tree.winner else { throw CouchStoreError.corrupt("a tree without leaves") }
        let treeBytes = tree.encoded()
        let attachmentBytes = attachments.reduce(Int64(0)) { $0 + $1.length }
        // One string for both rows that hold the body (the revision's and, when it wins, the winner's copy).
        let bodyText = SQLValue.text(edit.bodyString)
        // The winner's copy: the new revision, the previous winner, or (rarely) another leaf now winning.
        var copy: (body: SQLValue, atts: [UInt8]?, size: Int64)?
        if winner.rev == rev {
            copy = (bodyText, AttachmentJSON.stubsText(attachments), Int64(edit.bodyText.count) + attachmentBytes)
        } else if winner.rev != existing?.winner {
            copy = try winnerCopy(rowID: existing?.rowID, rev: winner.rev)
        }
        let rowID: Int64
        if let existing {
            rowID = existing.rowID
            if let copy {
                try ctx.db.run("""
                    UPDATE couch_docs SET seq = ?, rev = ?, deleted = ?, body = ?, atts = ?, size = ?, tree = ?
                    WHERE doc_rowid = ?
                    """, [.integer(seq), .text(winner.rev.description), .integer(winner.deleted ? 1 : 0),
                          copy.body, copy.atts.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null,
                          .integer(copy.size), .blob(treeBytes), .integer(rowID)])
                externalDelta += copy.size - existing.size
            } else {
                try ctx.db.run("UPDATE couch_docs SET seq = ?, tree = ? WHERE doc_rowid = ?",
                               [.integer(seq), .blob(treeBytes), .integer(rowID)])
            }
            activeDelta += Int64(treeBytes.count - existing.treeBytes)
            if existing.deleted != winner.deleted {
                docCountDelta += winner.deleted ? -1 : 1
                delCountDelta += winner.deleted ? 1 : -1
            }
        } else {
            guard let copy else { throw CouchStoreError.corrupt("a new document whose winner is not its revision") }
            try ctx.db.run("""
                INSERT INTO couch_docs (db_id, doc_id, seq, rev, deleted, body, atts, size, tree)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(databaseID), .text(edit.id), .integer(seq), .text(winner.rev.description),
                      .integer(winner.deleted ? 1 : 0), copy.body,
                      copy.atts.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null, .integer(copy.size),
                      .blob(treeBytes)])
            rowID = ctx.db.lastInsertRowID
            externalDelta += copy.size
            activeDelta += Int64(treeBytes.count)
            if winner.deleted { delCountDelta += 1 } else { docCountDelta += 1 }
        }
        try ctx.db.run("INSERT INTO couch_revs (doc_rowid, rev, deleted, body, att_count) VALUES (?, ?, ?, ?, ?)",
                       [.integer(rowID), .text(rev.description), .integer(edit.deleted ? 1 : 0), bodyText,
                        .integer(Int64(attachments.count))])
        let revRowID = ctx.db.lastInsertRowID
        for (position, attachment) in attachments.enumerated() {
            try insert(attachment, revisionRowID: revRowID, position: position)
        }
        activeDelta += Int64(edit.bodyText.count) + attachmentBytes
        if !removed.isEmpty {
            activeDelta -= try RevisionRows.remove(removed, documentRowID: rowID, ctx: ctx, blobs: blobs)
        }
    }

    /// The copy of a leaf that becomes the winner without being the edited revision.
    private func winnerCopy(rowID: Int64?, rev: RevID) throws -> (body: SQLValue, atts: [UInt8]?, size: Int64) {
        guard let rowID, let stored = try SQLiteCouchReader(db: ctx.db).revision(documentRowID: rowID, rev: rev) else {
            throw CouchStoreError.corrupt("a leaf without a stored body")
        }
        let size = Int64(stored.body.count) + stored.attachments.reduce(Int64(0)) { $0 + $1.length }
        return (.text(String(decoding: stored.body, as: UTF8.self)), AttachmentJSON.stubsText(stored.attachments), size)
    }

    /// The attachments of the new revision (§5.6): stubs taken from `reference` (412 `missing_stub` when it
    /// lacks one or its `revpos` differs), data given the new generation as `revpos` unless kept.
    private func resolve(_ edit: DocumentEdit, reference: RevID?, rowID: Int64?, generation: Int,
                         keepRevpos: Bool) throws -> Result<[StoredAttachment], CouchError> {
        guard !edit.attachments.isEmpty else { return .success([]) }
        var referenced: [StoredAttachment]?
        var list: [StoredAttachment] = []
        list.reserveCapacity(edit.attachments.count)
        for input in edit.attachments {
            switch input {
            case .data(var attachment, let keep):
                if !(keep || keepRevpos) { attachment.revpos = generation }
                list.append(attachment)
            case .stub(let name, let revpos):
                if referenced == nil, let reference, let rowID {
                    referenced = try SQLiteCouchReader(db: ctx.db).revision(documentRowID: rowID, rev: reference)?.attachments
                }
                guard let stored = referenced?.first(where: { $0.name == name }),
                      revpos == nil || revpos == stored.revpos else {
                    return .failure(.missingStub(docID: edit.id, name: name))
                }
                list.append(stored)
            }
        }
        return .success(list)
    }

    private func insert(_ attachment: StoredAttachment, revisionRowID: Int64, position: Int) throws {
        try blobs.retain(attachment.blobHash, in: ctx)
        try ctx.db.run("""
            INSERT INTO couch_atts (rev_rowid, position, name, content_type, length, digest, revpos, encoding,
                                    encoded_length, blob_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(revisionRowID), .integer(Int64(position)), .text(attachment.name),
                  .text(attachment.contentType), .integer(attachment.length), .text(attachment.digest),
                  .integer(Int64(attachment.revpos)), attachment.encoding.map { .text($0) } ?? .null,
                  attachment.encodedLength.map { .integer($0) } ?? .null, .text(attachment.blobHash)])
    }

    private func load(_ id: String) throws -> Existing? {
        var existing: Existing?
        try ctx.db.forEachRow("""
            SELECT doc_rowid, rev, deleted, size, tree FROM couch_docs WHERE db_id = ? AND doc_id = ?
            """, [.integer(databaseID), .text(id)]) { row in
            guard let rowID = row.int64(0), let revText = row.buffer(1), let size = row.int64(3),
                  let bytes = row.bytes(4), let winner = try? RevID(parsingUTF8: revText) else {
                throw CouchStoreError.corrupt("document row")
            }
            let tree: RevTree
            do {
                tree = try RevTree(encoded: bytes)
            } catch {
                throw CouchStoreError.corrupt("revision tree: \(error)")
            }
            existing = Existing(rowID: rowID, tree: tree, winner: winner, deleted: row.int64(2) != 0, size: size,
                                treeBytes: bytes.count)
            return false
        }
        return existing
    }

    /// Records the database's new counters and announces the new `update_seq` once the batch commits.
    func finish() throws {
        guard updateSeq != startSeq || activeDelta != 0 else { return }
        try ctx.db.run("""
            UPDATE couch_databases SET update_seq = ?, doc_count = doc_count + ?, doc_del_count = doc_del_count + ?,
                   external_size = external_size + ?, active_size = active_size + ?
            WHERE db_id = ?
            """, [.integer(updateSeq), .integer(docCountDelta), .integer(delCountDelta), .integer(externalDelta),
                  .integer(activeDelta), .integer(databaseID)])
        if updateSeq != startSeq {
            ctx.publish(ChangeEvent(topic: CouchTopics.database(databaseID), sequence: updateSeq))
        }
    }
}

/// Removal of revision bodies (stemming, compaction) with their attachment references.
enum RevisionRows {
    /// Deletes the stored bodies of `revs` (those that have one) and their attachment rows, releasing
    /// their blobs. Returns the bytes removed (bodies and attachment lengths).
    static func remove(_ revs: [RevID], documentRowID: Int64, ctx: WriteContext, blobs: BlobStore) throws -> Int64 {
        var bytes: Int64 = 0
        for rev in revs {
            guard let row = try ctx.db.queryOne(
                "SELECT rev_rowid, att_count, length(body) FROM couch_revs WHERE doc_rowid = ? AND rev = ?",
                [.integer(documentRowID), .text(rev.description)]), let revRowID = row[0].int64 else { continue }
            bytes += row[2].int64 ?? 0
            if (row[1].int64 ?? 0) > 0 {
                var hashes: [(String, Int64)] = []
                try ctx.db.forEachRow("SELECT blob_hash, length FROM couch_atts WHERE rev_rowid = ?",
                                      [.integer(revRowID)]) { att in
                    if let hash = att.string(0) { hashes.append((hash, att.int64(1) ?? 0)) }
                    return true
                }
                for (hash, length) in hashes {
                    try blobs.release(hash, in: ctx)
                    bytes += length
                }
                try ctx.db.run("DELETE FROM couch_atts WHERE rev_rowid = ?", [.integer(revRowID)])
            }
            try ctx.db.run("DELETE FROM couch_revs WHERE rev_rowid = ?", [.integer(revRowID)])
        }
        return bytes
    }
}
