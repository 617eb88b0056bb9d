import Core

/// Thrown when a `$text` query needs an FTS index that does not exist yet; the caller creates it in a
/// write job and runs the query again (spec §7.8).
struct TextIndexMissing: Error {
    let className: String
    let field: String
}

extension WhereCompiler {
    /// `{"$search":{"$term":...,"$language"?,"$caseSensitive"?,"$diacriticSensitive"?}}`
    mutating func text(_ ref: FieldRef, _ operand: JSON) throws -> String {
        guard let search = operand["$search"]?.objectValue else { throw ParseError(107, "bad $text: $search, should be object") }
        guard let term = search["$term"]?.stringValue else { throw ParseError(107, "bad $text: $term, should be string") }
        if let l = search["$language"], l.stringValue == nil { throw ParseError(107, "bad $text: $language, should be string") }
        for k in ["$caseSensitive", "$diacriticSensitive"] {
            if let v = search[k], v.boolValue == nil { throw ParseError(107, "bad $text: \(k), should be boolean") }
        }
        guard textSearch == nil else { throw ParseError(102, "Only one $text constraint is allowed in a query.") }
        guard ref.path.count == 1, case .string? = ref.type, let field = ref.path.first else { return "0" }
        guard try tx.textFields(className).contains(field) else { throw TextIndexMissing(className: className, field: field) }
        let (match, positives) = Self.ftsQuery(term)
        guard !match.isEmpty else { return "0" }
        textSearch = (field, match)
        if search["$caseSensitive"]?.boolValue == true || search["$diacriticSensitive"]?.boolValue == true {
            let words = positives
            residual.append { o in
                guard let s = o.data[field]?.stringValue else { return false }
                return words.allSatisfy { s.contains($0) }
            }
        }
        args.append(.text(match))
        let table = SQLiteTransaction.ftsTable(className, field)
        return "o.seq IN (SELECT rowid FROM \(table) WHERE \(table) MATCH ?)"
    }

    /// MongoDB `$search` semantics as an FTS5 expression built only from quoted strings: words are OR-ed,
    /// "quoted phrases" are required, -words are excluded. Returns the expression and the positive terms.
    static func ftsQuery(_ term: String) -> (String, [String]) {
        var words: [String] = [], phrases: [String] = [], negated: [String] = []
        var chars = Substring(term)
        while let c = chars.first {
            if c == "\"" {
                chars = chars.dropFirst()
                let end = chars.firstIndex(of: "\"") ?? chars.endIndex
                let phrase = chars[..<end].trimmingCharacters(in: .whitespaces)
                if !phrase.isEmpty { phrases.append(phrase) }
                chars = end < chars.endIndex ? chars[chars.index(after: end)...] : ""
            } else if c.isWhitespace {
                chars = chars.dropFirst()
            } else {
                let end = chars.firstIndex(where: { $0.isWhitespace || $0 == "\"" }) ?? chars.endIndex
                let word = String(chars[..<end])
                if word.hasPrefix("-"), word.count > 1 { negated.append(String(word.dropFirst())) } else { words.append(word) }
                chars = chars[end...]
            }
        }
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var expr = ""
        if !words.isEmpty { expr = "(" + words.map(quote).joined(separator: " OR ") + ")" }
        for p in phrases { expr += (expr.isEmpty ? "" : " AND ") + quote(p) }
        if !expr.isEmpty { for n in negated { expr += " NOT " + quote(n) } }
        return (expr, words + phrases)
    }
}

import Foundation
