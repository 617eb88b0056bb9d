import Core
import Storage

/// The full-text index behind BQL `like` (§6.2): SQLite FTS5 with `unicode61 remove_diacritics 2`, one row
/// per (object, text field). The `scope` column holds a single token naming the field, so a search is
/// restricted to one field by FTS5 itself; `body` holds the text.
enum FullTextSQL {
    /// The scope token of a field: its catalogue id, never its client-chosen name.
    static func scope(fieldID: Int64) -> String { "f\(fieldID)" }

    /// The MATCH expression: the field's scope, and any of the words. Every word is a quoted FTS5 string
    /// (quotes doubled), so FTS syntax in a parameter (`*`, `NEAR(`, `OR`, `"`) is only ever text.
    static func match(fieldID: Int64, words: [String]) -> String {
        let quoted = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return "scope : \"\(scope(fieldID: fieldID))\" AND body : ( " + quoted.joined(separator: " OR ") + " )"
    }

    /// The indexed text of a value: the string itself, with HTML tags removed for `#rt` (§6.2).
    static func body(of value: JSON, type: FieldType) -> String? {
        guard case .string(let text) = value else { return nil }
        return type == .richText ? stripTags(text) : text
    }

    /// Text outside `<...>` tags; each tag becomes a space so that words on both sides stay apart.
    static func stripTags(_ html: String) -> String {
        var out = String.UnicodeScalarView()
        var inTag = false
        for scalar in html.unicodeScalars {
            if inTag {
                if scalar == ">" { inTag = false }
            } else if scalar == "<" {
                inTag = true
                out.append(" ")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Replaces the full-text row of (`object`, `field`) with `body` (none when nil).
    static func reindex(_ db: Database, object: Int64, fieldID: Int64, body: String?) throws {
        if let old = try db.queryOne("SELECT rowid FROM bb_text WHERE object = ? AND field = ?",
                                     [.integer(object), .integer(fieldID)])?[0].int64 {
            try db.run("DELETE FROM bb_fts WHERE rowid = ?", [.integer(old)])
            try db.run("DELETE FROM bb_text WHERE rowid = ?", [.integer(old)])
        }
        guard let body, !body.isEmpty else { return }
        try db.run("INSERT INTO bb_text (object, field) VALUES (?, ?)", [.integer(object), .integer(fieldID)])
        let rowid = db.lastInsertRowID
        try db.run("INSERT INTO bb_fts (rowid, scope, body) VALUES (?, ?, ?)",
                   [.integer(rowid), .text(scope(fieldID: fieldID)), .text(body)])
    }

    /// Removes every full-text row of `object`.
    static func remove(_ db: Database, object: Int64) throws {
        try db.run("DELETE FROM bb_fts WHERE rowid IN (SELECT rowid FROM bb_text WHERE object = ?)", [.integer(object)])
        try db.run("DELETE FROM bb_text WHERE object = ?", [.integer(object)])
    }
}

/// The coordinates of location fields, for near and bounding queries (§5.2.2, §5.2.3).
enum GeoSQL {
    /// Earth's radius of the haversine distance, in metres: (0,0)→(0,1) is 111,195 m (§5.2.2).
    static let earthRadius = 6_371_000.0

    /// Replaces the coordinates of (`object`, `field`) with those of `value` (a stored `#l` object); a
    /// location without coordinates (address only) has no row and never matches near or bounding.
    static func reindex(_ db: Database, object: Int64, fieldID: Int64, value: JSON?) throws {
        try db.run("DELETE FROM bb_geo WHERE object = ? AND field = ?", [.integer(object), .integer(fieldID)])
        guard let value, let lat = value["lat"]?.doubleValue, let lon = value["lon"]?.doubleValue else { return }
        try db.run("INSERT INTO bb_geo (object, field, lat, lon, geohash) VALUES (?, ?, ?, ?, ?)",
                   [.integer(object), .integer(fieldID), .real(lat), .real(lon),
                    .text(Geohash.encode(lat: lat, lon: lon, length: 11))])
    }

    /// The haversine distance in metres between `g.lat, g.lon` and the bound point, as SQL (SQLite's math
    /// functions). Binds lat, lat, lon in that order.
    static func distance(lat: Double, lon: Double, into out: inout SQLFragment) {
        out.sql("(2 * \(earthRadius) * asin(min(1, sqrt(pow(sin(radians(g.lat - ")
        out.bind(.real(lat))
        out.sql(") / 2), 2) + cos(radians(")
        out.bind(.real(lat))
        out.sql(")) * cos(radians(g.lat)) * pow(sin(radians(g.lon - ")
        out.bind(.real(lon))
        out.sql(") / 2), 2)))))")
    }
}
