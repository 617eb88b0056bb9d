import Core

/// The bytes of the `_changes` answers (spec §3.11.2–3.11.7), laid out as CouchDB 3.3 writes them so that
/// clients that read them line by line (or chunk by chunk) see what they expect: the normal and longpoll
/// answer is `{"results":[` newline, rows separated by `,\r\n`, then `\n],\n"last_seq":N,"pending":P}\n`; a
/// continuous feed is one row per line closed by `{"last_seq":N,"pending":P}\n`; server-sent events carry
/// each row as `data:` with the sequence as `id:`.
enum ChangesJSON {
    /// What a row shows.
    struct RowStyle: Sendable, Hashable {
        /// Every leaf in `changes` (`style=all_docs`), not only the winner.
        var allLeaves = false
        /// The winner as `doc` (`include_docs`).
        var includeDocs = false
        /// `_conflicts` in `doc`.
        var conflicts = false

        /// Whether rendering needs each row's revision tree.
        var needsTree: Bool { allLeaves || (includeDocs && conflicts) }
    }

    static let normalHead: [UInt8] = Array("{\"results\":[\n".utf8)
    static let rowSeparator: [UInt8] = Array(",\r\n".utf8)
    /// A heartbeat of the normal, longpoll and continuous feeds: whitespace, so the body stays valid JSON.
    static let heartbeat: [UInt8] = [UInt8(ascii: "\n")]
    static let eventSourceHeartbeat: [UInt8] = Array("event: heartbeat\ndata: \n\n".utf8)

    /// `\n],\n"last_seq":N,"pending":P}\n`: the end of a normal or longpoll answer.
    static func normalTail(lastSeq: Int64, pending: Int64) -> [UInt8] {
        Array("\n],\n\"last_seq\":\(lastSeq),\"pending\":\(pending)}\n".utf8)
    }

    /// A whole normal or longpoll answer.
    static func normalBody(rows: [[UInt8]], lastSeq: Int64, pending: Int64) -> [UInt8] {
        var out = normalHead
        appendRows(rows, to: &out, first: true)
        out.append(contentsOf: normalTail(lastSeq: lastSeq, pending: pending))
        return out
    }

    /// Appends rows of a normal answer; `first` when nothing was written after the head yet.
    static func appendRows(_ rows: [[UInt8]], to out: inout [UInt8], first: Bool) {
        for (index, row) in rows.enumerated() {
            if index > 0 || !first { out.append(contentsOf: rowSeparator) }
            out.append(contentsOf: row)
        }
    }

    /// `{"last_seq":N,"pending":P}\n`: the last line of a continuous feed.
    static func continuousEnd(lastSeq: Int64, pending: Int64) -> [UInt8] {
        Array("{\"last_seq\":\(lastSeq),\"pending\":\(pending)}\n".utf8)
    }

    /// Rows of a continuous feed: one per line.
    static func continuousLines(_ rows: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for row in rows {
            out.append(contentsOf: row)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// Rows as server-sent events: `data: {row}\nid: {seq}\n\n`.
    static func events(_ rows: [[UInt8]], seqs: [Int64]) -> [UInt8] {
        var out: [UInt8] = []
        for (row, seq) in zip(rows, seqs) {
            out.append(contentsOf: Array("data: ".utf8))
            out.append(contentsOf: row)
            out.append(contentsOf: Array("\nid: \(seq)\n\n".utf8))
        }
        return out
    }

    /// One row: `{"seq":N,"id":"…","changes":[{"rev":"…"},…],"deleted":true,"doc":{…}}`, `deleted` only for a
    /// deleted winner and `doc` only with `include_docs`. `changes` holds the winner, or with `allLeaves`
    /// every leaf (deleted ones included) in winner order, the winner first (§5.2). `doc` carries the stored
    /// attachment stubs.
    static func row(_ record: ChangeRecord, style: RowStyle) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + record.id.utf8.count + record.rev.utf8.count + (record.body?.count ?? 0))
        out.append(contentsOf: seqPrefix)
        appendDecimal(record.seq, to: &out)
        out.append(contentsOf: idPrefix)
        var id = record.id
        id.withUTF8 { JSON.appendQuoted(utf8: $0, to: &out) }
        out.append(contentsOf: changesPrefix)
        if style.allLeaves, let leaves = record.tree?.leavesInWinnerOrder {
            for (index, leaf) in leaves.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendRev(leaf.rev.description, to: &out)
            }
        } else {
            appendRev(record.rev, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        if record.deleted { out.append(contentsOf: deletedMember) }
        if style.includeDocs, let body = record.body {
            out.append(contentsOf: docPrefix)
            var metadata: [(String, JSON)] = []
            if style.conflicts, let conflicts = record.tree?.conflicts, !conflicts.isEmpty {
                metadata.append(("_conflicts", .array(conflicts.map(\.json))))
            }
            DocumentJSON.appendParts(to: &out, id: record.id, rev: record.rev, body: body, deleted: record.deleted,
                                     metadata: metadata, attachments: record.attachments)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"rev":"…"}` (revision ids are ASCII without quotes or backslashes).
    private static func appendRev(_ rev: String, to out: inout [UInt8]) {
        out.append(contentsOf: revPrefix)
        out.append(contentsOf: rev.utf8)
        out.append(contentsOf: revSuffix)
    }

    /// The decimal digits of `value` (sequences are never negative).
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if value < 0 { out.append(UInt8(ascii: "-")) }
        out.append(contentsOf: digits.reversed())
    }

    // Static strings, not array constants (see DocumentJSON).
    private static let seqPrefix: StaticString = "{\"seq\":"
    private static let idPrefix: StaticString = ",\"id\":"
    private static let changesPrefix: StaticString = ",\"changes\":["
    private static let revPrefix: StaticString = "{\"rev\":\""
    private static let revSuffix: StaticString = "\"}"
    private static let deletedMember: StaticString = ",\"deleted\":true"
    private static let docPrefix: StaticString = ",\"doc\":"
}
