import Core
import Foundation

/// Thrown when a `$text` query needs a full-text index that does not exist yet; the caller creates it in
/// a write job and runs the query again (spec §7.8).
struct TextIndexMissing: Error {
    let className: String
    let field: String
}

extension WhereCompiler {
    /// `{"$search":{"$term":...,"$language"?,"$caseSensitive"?,"$diacriticSensitive"?}}`
    mutating func text(_ ref: FieldRef, _ operand: JSON) throws -> QueryPredicate {
        guard let search = operand["$search"]?.objectValue else { throw ParseError(107, "bad $text: $search, should be object") }
        guard let term = search["$term"]?.stringValue else { throw ParseError(107, "bad $text: $term, should be string") }
        if let l = search["$language"], l.stringValue == nil { throw ParseError(107, "bad $text: $language, should be string") }
        for k in ["$caseSensitive", "$diacriticSensitive"] {
            if let v = search[k], v.boolValue == nil { throw ParseError(107, "bad $text: \(k), should be boolean") }
        }
        guard textSearch == nil else { throw ParseError(102, "Only one $text constraint is allowed in a query.") }
        guard ref.path.count == 1, case .string? = ref.type, let field = ref.path.first else { return .constant(false) }
        guard try tx.textFields(className).contains(field) else { throw TextIndexMissing(className: className, field: field) }
        let terms = Self.searchTerms(term)
        // Without a word or phrase nothing can match (exclusions alone select nothing).
        guard !terms.words.isEmpty || !terms.phrases.isEmpty else { return .constant(false) }
        let found = TextSearch(className: className, field: field, words: terms.words, phrases: terms.phrases,
                               excluded: terms.excluded)
        textSearch = found
        if search["$caseSensitive"]?.boolValue == true || search["$diacriticSensitive"]?.boolValue == true {
            // The index folds case and diacritics; the exact forms are checked on the candidates.
            residual.append(.containsAll(field: field, words: terms.words + terms.phrases))
        }
        return .textSearch(found)
    }

    /// MongoDB `$search` semantics: words are OR-ed, "quoted phrases" are required, -words are excluded.
    static func searchTerms(_ term: String) -> (words: [String], phrases: [String], excluded: [String]) {
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
        return (words, phrases, negated)
    }
}
