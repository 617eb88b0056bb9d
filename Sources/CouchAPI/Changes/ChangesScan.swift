/// One page of a `_changes` read (spec §3.11.2) and what the summary says after it.
struct ChangesPage: Sendable {
    /// The rows, in feed order.
    var rows: [ChangeRecord]
    /// Where the feed stands after these rows: the last change examined, or the last row when the limit
    /// stopped it. Also the position the next page reads from.
    var lastSeq: Int64
    /// Changes after `lastSeq` (before it, descending) not sent; meaningful when `isFinal`.
    var pending: Int64
    /// Nothing more to read now: the limit was reached or every change up to `update_seq` was examined.
    var isFinal: Bool
    /// The limit stopped the feed.
    var limitReached: Bool
    /// The database (this incarnation) no longer exists.
    var databaseGone: Bool
}

/// Reads the changes index page by page, so that a feed of any length is sent with bounded memory.
enum ChangesScan {
    /// Most rows one page reads (one snapshot each): big enough that a typical feed is one page and one
    /// response with a length, small enough that a replicator starting from 0 streams.
    static let pageSize = 500

    /// The page after `position` (before it, descending) of `databaseID`, at most `rowsLeft` rows (nil: no
    /// limit; otherwise at least 1). With `include_docs` and `attachments=true` a page also ends before the row
    /// whose inline attachment data would take it past `attachments.budget` (its first row always fits), so
    /// the feed goes on in the next page.
    static func page(_ reader: any CouchReader, databaseID: Int64, options: ChangesOptions,
                     selection: ChangesSelection, after position: Int64, rowsLeft: Int?,
                     attachments: AttachmentSource) throws -> ChangesPage {
        guard let database = try reader.database(id: databaseID) else {
            return ChangesPage(rows: [], lastSeq: position, pending: 0, isFinal: true, limitReached: false,
                               databaseGone: true)
        }
        let want = min(pageSize, max(1, rowsLeft ?? .max))
        let style = options.rowStyle
        var rows = try reader.changes(ChangesRead(databaseID: databaseID, from: position, descending: options.descending,
                                                  selection: selection, limit: want, includeTree: style.needsTree,
                                                  includeDocument: style.includeDocs))
        if style.includeDocs, options.attachments || options.attEncodingInfo {
            let complete: Bool
            (rows, complete) = try withAttachments(rows, reader, options, attachments)
            if !complete, let last = rows.last {
                return ChangesPage(rows: rows, lastSeq: last.seq, pending: 0, isFinal: false, limitReached: false,
                                   databaseGone: false)
            }
        }
        if rows.count == want, let last = rows.last {
            guard rowsLeft == want else {
                // A full page: more may follow; the next page reads from its last row.
                return ChangesPage(rows: rows, lastSeq: last.seq, pending: 0, isFinal: false, limitReached: false,
                                   databaseGone: false)
            }
            let pending = try options.descending
                ? reader.changeCount(databaseID: databaseID, after: nil, before: last.seq)
                : reader.changeCount(databaseID: databaseID, after: last.seq, before: nil)
            return ChangesPage(rows: rows, lastSeq: last.seq, pending: pending, isFinal: true, limitReached: true,
                               databaseGone: false)
        }
        // Every change of the snapshot was examined (the filter may have passed over some of them).
        let lastSeq: Int64
        if options.descending {
            // Newest first: the last one examined is the oldest change of the database.
            let oldest = try reader.changes(ChangesRead(databaseID: databaseID, from: 0, limit: 1)).first
            lastSeq = oldest?.seq ?? 0
        } else {
            // A `since` beyond `update_seq` stays where it is (the decision: a long poll from it waits).
            lastSeq = max(position, database.updateSeq)
        }
        return ChangesPage(rows: rows, lastSeq: lastSeq, pending: 0, isFinal: true, limitReached: false,
                           databaseGone: false)
    }

    /// The rows with their documents' `_attachments` as `attachments=true`/`att_encoding_info=true` show them,
    /// up to the row whose data no longer fits the page's budget; `complete` is false when rows were left out.
    private static func withAttachments(_ rows: [ChangeRecord], _ reader: any CouchReader, _ options: ChangesOptions,
                                        _ source: AttachmentSource) throws -> (rows: [ChangeRecord], complete: Bool) {
        var listed = ListedAttachments(data: options.attachments, encodingInfo: options.attEncodingInfo, source: source)
        var result: [ChangeRecord] = []
        result.reserveCapacity(rows.count)
        for record in rows {
            guard record.attachments != nil, record.body != nil else {
                result.append(record)
                continue
            }
            let stored = try ListedAttachments.revision(reader, rowID: record.rowID, rev: try RevID(parsing: record.rev))
            guard listed.fits(stored) else { return (result, false) }
            result.append(ChangeRecord(seq: record.seq, id: record.id, rowID: record.rowID, rev: record.rev,
                                       deleted: record.deleted, tree: record.tree, body: record.body,
                                       attachments: try listed.text(stored)))
        }
        return (result, true)
    }
}
