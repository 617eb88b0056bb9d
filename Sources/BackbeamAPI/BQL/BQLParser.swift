/// Parses BQL (§6.1) into a `BQLQuery`, enforcing the limits of §6.5 as it goes.
///
/// ```
/// query      = where? join* sortBy?
/// where      = "where" part
/// part       = (group | constraint) (("and" | "or") part)?      ; right-associative, no precedence
/// group      = "(" part ")"
/// constraint = lhs operator rhs
/// lhs        = field ("." field)?  |  "this"
/// operator   = "=" | ">=" | "<=" | ">" | "<" | "like" | "is not" | "not in" | "is" | "in" | "has"
/// rhs        = "?" ("." field)?  |  number
/// join       = "join" (("first" | "last") number)? field ("having" part)? ("fetch" field ("," field)*)?
/// sortBy     = "sort" "by" field ("asc" | "desc")?
/// ```
///
/// Keywords are case-insensitive, field ids case-sensitive. Where the grammar expects a field, any word
/// is a field, so fields spelled like keywords still work there (`where type=?`, `fetch first`).
public struct BQLParser {
    var tokens: [BQLToken]
    var position = 0
    let limits: BQLLimits
    var constraintCount = 0
    var placeholderCount = 0

    /// Parses a whole query (`q`). Empty or blank text is the empty query.
    public static func parse(_ text: String, limits: BQLLimits = BQLLimits()) throws(BQLError) -> BQLQuery {
        var parser = try BQLParser(text, limits: limits)
        return try parser.parseQuery(joinsOnly: false)
    }

    /// Parses a `joins` parameter (single reads and logins, §5.2.4, §5.4.2): join clauses only; a `where`
    /// or `sort by` is an error.
    public static func parseJoins(_ text: String, limits: BQLLimits = BQLLimits()) throws(BQLError) -> BQLQuery {
        var parser = try BQLParser(text, limits: limits)
        return try parser.parseQuery(joinsOnly: true)
    }

    init(_ text: String, limits: BQLLimits) throws(BQLError) {
        // The length is checked before lexing so that an oversized text costs nothing more than its count.
        let length = text.utf16.count
        guard length <= limits.maxQueryLength else {
            throw BQLError(.limit, "The query is longer than \(limits.maxQueryLength) characters")
        }
        self.tokens = try BQLLexer.tokens(text)
        self.limits = limits
    }

    mutating func parseQuery(joinsOnly: Bool) throws(BQLError) -> BQLQuery {
        var query = BQLQuery()
        if isKeyword("where") {
            if joinsOnly { throw BQLError(.syntax, "Only join clauses are allowed here", at: current.offset) }
            advance()
            query.condition = try parsePart(depth: 0)
        }
        while isKeyword("join") {
            guard query.joins.count < limits.maxJoins else {
                throw BQLError(.limit, "More than \(limits.maxJoins) joins", at: current.offset)
            }
            query.joins.append(try parseJoin())
        }
        if isKeyword("sort") {
            if joinsOnly { throw BQLError(.syntax, "Only join clauses are allowed here", at: current.offset) }
            query.sort = try parseSort()
        }
        guard case .end = current.kind else { throw unexpected(joinsOnly ? "'join'" : "'where', 'join' or 'sort by'") }
        query.placeholderCount = placeholderCount
        return query
    }

    // MARK: - Conditions

    /// `part`: items joined by `and`/`or`, folded right so that `a and b or c` is `a and (b or c)`.
    /// Iterative, so a long chain does not deepen the parser's recursion; only parentheses do, and
    /// they are bounded by `maxDepth`.
    mutating func parsePart(depth: Int) throws(BQLError) -> BQLCondition {
        var items: [BQLCondition] = [try parseItem(depth: depth)]
        var connectives: [Bool] = []   // true = and
        while true {
            if isKeyword("and") { connectives.append(true) } else if isKeyword("or") { connectives.append(false) } else { break }
            advance()
            items.append(try parseItem(depth: depth))
        }
        var result = items[items.count - 1]
        for i in stride(from: connectives.count - 1, through: 0, by: -1) {
            result = connectives[i] ? .and(items[i], result) : .or(items[i], result)
        }
        return result
    }

    /// `group | constraint`.
    mutating func parseItem(depth: Int) throws(BQLError) -> BQLCondition {
        guard case .open = current.kind else { return .constraint(try parseConstraint()) }
        guard depth < limits.maxDepth else {
            throw BQLError(.limit, "Parentheses nested deeper than \(limits.maxDepth)", at: current.offset)
        }
        advance()
        let inner = try parsePart(depth: depth + 1)
        guard case .close = current.kind else { throw unexpected("')'") }
        advance()
        return inner
    }

    // MARK: - Token helpers

    var current: BQLToken { tokens[min(position, tokens.count - 1)] }

    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    /// The token after the current one (the end token at the end).
    var next: BQLToken { tokens[min(position + 1, tokens.count - 1)] }

    /// True when the current token is the word `keyword` in any letter case.
    func isKeyword(_ keyword: String) -> Bool { Self.isKeyword(current, keyword) }

    static func isKeyword(_ token: BQLToken, _ keyword: String) -> Bool {
        guard case .word(let word) = token.kind else { return false }
        return word.utf8.count == keyword.utf8.count
            && zip(word.utf8, keyword.utf8).allSatisfy { ($0 | 0x20) == $1 }
    }

    /// Consumes a word expected to be a field id and returns it.
    mutating func expectField(_ what: String) throws(BQLError) -> (name: String, offset: Int) {
        guard case .word(let word) = current.kind else { throw unexpected(what) }
        let offset = current.offset
        advance()
        return (word, offset)
    }

    /// "Expected X, found Y at offset N".
    func unexpected(_ expected: String) -> BQLError {
        BQLError(.syntax, "Expected \(expected), found \(describe(current))", at: current.offset)
    }

    func describe(_ token: BQLToken) -> String {
        switch token.kind {
        case .word(let w): return "'\(w.count > 64 ? String(w.prefix(64)) + "..." : w)'"
        case .number(let n): return "'\(n.count > 64 ? String(n.prefix(64)) + "..." : n)'"
        case .question: return "'?'"
        case .dot: return "'.'"
        case .comma: return "','"
        case .open: return "'('"
        case .close: return "')'"
        case .comparison(let op): return "'\(op.rawValue)'"
        case .end: return "the end of the query"
        }
    }
}
