import Core
import QueryKit

/// A condition the store does not evaluate: checked on each candidate object the store streams, in
/// `QueryRunner` (stores offer no hook for the linear-time regex engine).
enum ResidualFilter: Sendable {
    /// A non-literal `$regex` at the top level of a `where` (spec §7.5): the field's text, or a text
    /// element of it, matches.
    case regex(JSONPath, RegexProgram)
    /// A case- or diacritic-sensitive `$text` search (spec §7.8): the field's text contains every word.
    case containsAll(field: String, words: [String])

    /// Whether `object` meets the condition, however long the regex engine takes.
    func matches(_ object: StoredObject) -> Bool {
        var budget = RegexBudget.unlimited
        // An unlimited budget is never spent.
        return (try? matches(object, budget: &budget)) ?? false
    }

    /// Whether `object` meets the condition. The regex engine spends `budget` (the query's, shared by every
    /// candidate), so a long match stops when the query's time is up, whatever the size of the value.
    func matches(_ object: StoredObject, budget: inout RegexBudget) throws(RegexBudgetExceeded) -> Bool {
        switch self {
        case .regex(let path, let program):
            return try path.anyValue(in: object.data) { (value: JSON) throws(RegexBudgetExceeded) -> Bool in
                guard let text = value.stringValue else { return false }
                return try program.matches(text, budget: &budget)
            }
        case .containsAll(let field, let words):
            guard let s = object.data[field]?.stringValue else { return false }
            return words.allSatisfy { s.contains($0) }
        }
    }
}

extension [ResidualFilter] {
    /// Whether `object` meets every filter, within the query's `budget`; a spent budget is the query's
    /// time-out (124).
    func allMatch(_ object: StoredObject, budget: inout RegexBudget) throws -> Bool {
        do {
            for filter in self {
                if !(try filter.matches(object, budget: &budget)) { return false }
            }
            return true
        } catch {
            throw ParseError.queryTimedOut
        }
    }
}
