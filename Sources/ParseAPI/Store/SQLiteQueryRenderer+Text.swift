import Foundation

/// `$text` (spec §7.8) as FTS5: one table per indexed field (`SQLiteTransaction+Text.swift`), whose rowid
/// is the object's `seq`.
extension SQLiteQueryRenderer {
    /// The search as an FTS5 expression built only from quoted strings, so no client text is FTS5 syntax:
    /// words OR-ed, phrases required, excluded words NOT-ed.
    static func ftsExpression(_ search: TextSearch) -> String {
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var expr = ""
        if !search.words.isEmpty { expr = "(" + search.words.map(quote).joined(separator: " OR ") + ")" }
        for p in search.phrases { expr += (expr.isEmpty ? "" : " AND ") + quote(p) }
        if !expr.isEmpty { for n in search.excluded { expr += " NOT " + quote(n) } }
        return expr
    }
}
