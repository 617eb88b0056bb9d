import Core
import Storage

/// Multi-row inserts of new documents for replicated `_bulk_docs` (§3.7, §5.4): what a replicator pushes
/// most is a run of documents the target has never seen, each a path without attachments. For those the
/// outcome needs nothing from the database (the tree is the path, stemmed; the winner its newest
/// revision), so a run is written with one statement for its document rows and one for its revision rows,
/// instead of two statements per document: each statement's own cost (opening and closing a cursor per
/// table and index, binding, halting) was about a third of the writer's work per document.
extension EditJob {
    /// Rows per statement. A run is cut into these sizes, largest first, so that only these few
    /// statements are ever prepared (each stays in the connection's statement cache); shorter rests go one
    /// document at a time.
    static let newDocumentBatches: [(size: Int, docs: String, revs: String)] = [64, 16, 4].map { size in
        (size,
         "INSERT INTO couch_docs (doc_rowid, db_id, doc_id, seq, rev, deleted, body, atts, size, tree) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)", count: size).joined(separator: ", "),
         "INSERT INTO couch_revs (doc_rowid, rev, deleted, body, att_count) VALUES "
            + Array(repeating: "(?, ?, ?, ?, 0)", count: size).joined(separator: ", "))
    }

    /// Writes the elements of `bulk` from `start` on as new documents when at least the smallest batch of
    /// them qualifies (replicated, no attachments), and returns their outcomes (as many as were written);
    /// nil when they do not qualify or when one of the ids is already stored or repeated in the run. The
    /// statement then undid itself (a failed multi-row insert is rolled back by SQLite's statement
    /// journal), nothing of the run was written, no sequence number was used, and the caller applies the
    /// elements one at a time, exactly as it would have.
    mutating func insertNewDocuments(_ bulk: [BulkEdit], from start: Int) throws -> [EditOutcome]? {
        guard batchesNewDocuments, let largest = Self.newDocumentBatches.first?.size else { return nil }
        var end = start
        while end < bulk.count, end - start < largest, case .document(let edit) = bulk[end], Self.isNewCandidate(edit) {
            end += 1
        }
        guard let batch = Self.newDocumentBatches.first(where: { $0.size <= end - start }) else { return nil }
        // Row ids are given explicitly so that the revision rows can name them; they continue after the
        // largest one, as SQLite would number them.
        let lastRowID = try ctx.db.queryOne("SELECT max(doc_rowid) FROM couch_docs")?[0].int64 ?? 0
        guard lastRowID >= 0, lastRowID < Int64.max - Int64(batch.size) else { return nil }
        var docArgs: [SQLValue] = []
        docArgs.reserveCapacity(batch.size * 9)
        var revArgs: [SQLValue] = []
        revArgs.reserveCapacity(batch.size * 4)
        var outcomes: [EditOutcome] = []
        outcomes.reserveCapacity(batch.size)
        var live: Int64 = 0
        var external: Int64 = 0
        var active: Int64 = 0
        for offset in 0..<batch.size {
            guard case .document(let edit) = bulk[start + offset], case .replicated(let path) = edit.mode,
                  let revText = edit.revisionText else { return nil }
            let seq = updateSeq + 1 + Int64(offset)
            let rowID = SQLValue.integer(lastRowID + 1 + Int64(offset))
            let treeBytes = RevTree.encodedNewPath(path, deleted: edit.deleted, seq: seq, limit: revsLimit)
            let size = Int64(edit.bodyText.count)
            let body = SQLValue.text(edit.bodyString)
            let rev = SQLValue.text(revText)
            let deleted = SQLValue.integer(edit.deleted ? 1 : 0)
            docArgs.append(contentsOf: [rowID, .integer(databaseID), .text(edit.id), .integer(seq), rev, deleted, body,
                                        .integer(size), .blob(treeBytes)])
            revArgs.append(contentsOf: [rowID, rev, deleted, body])
            if !edit.deleted { live += 1 }
            external += size
            active += Int64(treeBytes.count) + size
            outcomes.append(.ok(path.newest))
        }
        do {
            try ctx.db.run(batch.docs, docArgs)
        } catch StorageError.constraint {
            // An id already stored, or twice in the run: one document at a time from here on.
            batchesNewDocuments = false
            return nil
        }
        try ctx.db.run(batch.revs, revArgs)
        recordNewDocuments(count: Int64(batch.size), live: live, external: external, active: active)
        return outcomes
    }

    /// A replicated edit without attachments: when its document does not exist, nothing about its
    /// outcome depends on the database.
    private static func isNewCandidate(_ edit: DocumentEdit) -> Bool {
        guard case .replicated = edit.mode, edit.attachments.isEmpty, edit.revisionText != nil else { return false }
        return true
    }
}
