import QueryKit

/// A condition the store does not evaluate: checked on each candidate object the store streams, in
/// `QueryRunner` (stores offer no hook for the linear-time regex engine).
enum ResidualFilter: Sendable {
    /// A non-literal `$regex` at the top level of a `where` (spec §7.5): the field's text, or a text
    /// element of it, matches.
    case regex(JSONPath, RegexProgram)
    /// A case- or diacritic-sensitive `$text` search (spec §7.8): the field's text contains every word.
    case containsAll(field: String, words: [String])

    func matches(_ object: StoredObject) -> Bool {
        switch self {
        case .regex(let path, let program):
            return path.anyValue(in: object.data) { $0.stringValue.map(program.matches) ?? false }
        case .containsAll(let field, let words):
            guard let s = object.data[field]?.stringValue else { return false }
            return words.allSatisfy { s.contains($0) }
        }
    }
}
