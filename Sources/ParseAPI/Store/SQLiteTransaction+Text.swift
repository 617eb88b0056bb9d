import Synchronization
import Core
import Storage

/// FTS5 tables for `$text` (spec §7.8): tokenizer `porter unicode61 remove_diacritics 2`, rowid = object seq.
extension SQLiteTransaction {
    /// The quoted table name; class and field names are validated identifiers.
    static func ftsTable(_ className: String, _ field: String) -> String {
        "\"parse_fts_\(className)_\(field)\"".replacingOccurrences(of: "'", with: "")
    }

    func textFields(_ className: String) throws -> [String] {
        try db.query("SELECT field FROM parse_fts_fields WHERE class = ?", [.text(className)]).compactMap { $0["field"].string }
    }

    func enableText(_ className: String, _ field: String) throws {
        guard FieldNames.isValidClassName(className), FieldNames.isValid(field) else { return }
        // Before the table exists, so that no write can skip syncing it (even if this job rolls back, the
        // only cost is the lookup below on later writes).
        textIndexes.noteSome()
        if try textFields(className).contains(field) { return }
        let table = Self.ftsTable(className, field)
        try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS \(table) USING fts5(content, "
                       + "tokenize = 'porter unicode61 remove_diacritics 2')")
        let path = SQLPath.path([field])
        try db.run("INSERT INTO \(table) (rowid, content) SELECT seq, json_extract(data, \(path)) FROM parse_objects "
                   + "WHERE class = ? AND json_type(data, \(path)) = 'text'", [.text(className)])
        try db.run("INSERT INTO parse_fts_fields (class, field) VALUES (?, ?)", [.text(className), .text(field)])
    }

    func syncText(_ className: String, _ objectId: String, _ data: JSONObject?) throws {
        if try !textIndexes.mayExist(db) { return }
        let fields = try textFields(className)
        guard !fields.isEmpty,
              let seq = try db.queryOne("SELECT seq FROM parse_objects WHERE class = ? AND id = ?",
                                        [.text(className), .text(objectId)])?["seq"].int64 else { return }
        for f in fields {
            let table = Self.ftsTable(className, f)
            try db.run("DELETE FROM \(table) WHERE rowid = ?", [.integer(seq)])
            if let text = data?[f]?.stringValue {
                try db.run("INSERT INTO \(table) (rowid, content) VALUES (?, ?)", [.integer(seq), .text(text)])
            }
        }
    }

    func clearText(_ className: String, drop: Bool) throws {
        for f in try textFields(className) {
            let table = Self.ftsTable(className, f)
            if drop {
                try db.execute("DROP TABLE IF EXISTS \(table)")
            } else {
                try db.run("DELETE FROM \(table)")
            }
        }
        if drop { try db.run("DELETE FROM parse_fts_fields WHERE class = ?", [.text(className)]) }
    }

    func textScores(_ search: TextSearch, ids: [String]) throws -> [String: Double] {
        guard !ids.isEmpty else { return [:] }
        let className = search.className, match = SQLiteQueryRenderer.ftsExpression(search)
        let table = Self.ftsTable(className, search.field)
        let list = JSON.array(ids.map { .string($0) }).serialized()
        var out: [String: Double] = [:]
        for row in try db.query("SELECT o.id AS id, -bm25(\(table)) AS score FROM \(table) JOIN parse_objects o ON o.seq = "
                                + "\(table).rowid WHERE \(table) MATCH ? AND o.class = ? AND o.id IN (SELECT value FROM json_each(?))",
                                [.text(match), .text(className), .text(list)]) {
            if let id = row["id"].string { out[id] = row["score"].double ?? 0 }
        }
        return out
    }
}

/// Whether the database may hold any full-text index, so that the writes of an app that never searches
/// with `$text` skip looking one up for every object they create, update or delete.
///
/// Learned once per store from `parse_fts_fields`, and set before a full-text index is created; it never
/// goes back to "none", so at worst a write looks up fields that are not there. Only write jobs read and
/// change it, and they run one at a time on the writer thread.
final class TextIndexPresence: Sendable {
    private enum State: Int { case unknown, none, some }
    private let state = Atomic<Int>(State.unknown.rawValue)

    /// False only when it is known that no class has a full-text index.
    func mayExist(_ db: Database) throws -> Bool {
        switch State(rawValue: state.load(ordering: .acquiring)) ?? .unknown {
        case .none: return false
        case .some: return true
        case .unknown:
            let any = try db.queryOne("SELECT EXISTS (SELECT 1 FROM parse_fts_fields) AS present")?["present"].int64 == 1
            if any {
                noteSome()
            } else {
                // Not over a "some" set meanwhile.
                _ = state.compareExchange(expected: State.unknown.rawValue, desired: State.none.rawValue,
                                          ordering: .acquiringAndReleasing)
            }
            return any
        }
    }

    /// A full-text index is about to exist.
    func noteSome() { state.store(State.some.rawValue, ordering: .releasing) }
}
