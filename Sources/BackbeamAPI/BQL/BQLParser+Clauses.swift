extension BQLParser {
    /// `lhs operator rhs`, with the structural rules that need no field catalogue: `this` takes only `=`,
    /// `in` and `not in` (§6.2), and `?.field` only appears as `this in ?.field` / `this not in ?.field`.
    mutating func parseConstraint() throws(BQLError) -> BQLConstraint {
        let start = current.offset
        guard constraintCount < limits.maxConstraints else {
            throw BQLError(.limit, "More than \(limits.maxConstraints) constraints", at: start)
        }
        constraintCount += 1
        let lhs = try parseOperand()
        let op = try parseOperator()
        let rhs = try parseValue()
        if case .this = lhs, op != .equal, op != .in, op != .notIn {
            throw BQLError(.type, "Operator '\(op.rawValue)' cannot be used with 'this'", at: start)
        }
        if case .placeholderRelation = rhs {
            guard case .this = lhs, op == .in || op == .notIn else {
                throw BQLError(.syntax, "'?.field' is only valid as 'this in ?.field' or 'this not in ?.field'", at: start)
            }
        }
        return BQLConstraint(lhs: lhs, op: op, rhs: rhs, offset: start)
    }

    /// `field ("." field)? | "this"`.
    mutating func parseOperand() throws(BQLError) -> BQLOperand {
        if isKeyword("this") {
            advance()
            if case .dot = current.kind { throw unexpected("an operator") }
            return .this
        }
        let field = try expectField("a field or 'this'")
        guard case .dot = current.kind else { return .field(field.name) }
        advance()
        let subfield = try expectField("a field after '.'")
        return .subfield(field.name, subfield.name)
    }

    /// The operators; the two-word ones (`is not`, `not in`) are read before their one-word prefixes.
    mutating func parseOperator() throws(BQLError) -> BQLOperator {
        if case .comparison(let op) = current.kind {
            advance()
            return op
        }
        let op: BQLOperator
        if isKeyword("like") {
            op = .like
        } else if isKeyword("has") {
            op = .has
        } else if isKeyword("in") {
            op = .in
        } else if isKeyword("is") {
            if Self.isKeyword(next, "not") {
                advance()
                op = .isNot
            } else {
                op = .is
            }
        } else if isKeyword("not") {
            advance()
            guard isKeyword("in") else { throw unexpected("'in' after 'not'") }
            op = .notIn
        } else {
            throw unexpected("an operator")
        }
        advance()
        return op
    }

    /// `"?" ("." field)? | number`. Placeholders are numbered in textual order.
    mutating func parseValue() throws(BQLError) -> BQLValue {
        switch current.kind {
        case .question:
            let index = placeholderCount
            placeholderCount += 1
            advance()
            guard case .dot = current.kind else { return .placeholder(index) }
            advance()
            let field = try expectField("a field after '?.'")
            return .placeholderRelation(index, field.name)
        case .number(let literal):
            advance()
            return .number(literal)
        default:
            throw unexpected("'?' or a number")
        }
    }

    /// `"join" (("first" | "last") number)? field ("having" part)? ("fetch" field ("," field)*)?`.
    /// `first`/`last` count as keywords only when a number follows, so a relationship may be called
    /// `first`.
    mutating func parseJoin() throws(BQLError) -> BQLJoin {
        let start = current.offset
        advance()
        var window: BQLJoin.Window?
        if isKeyword("first") || isKeyword("last"), case .number(let literal) = next.kind {
            let first = isKeyword("first")
            advance()
            guard let n = Self.count(literal) else {
                throw BQLError(.syntax, "'\(first ? "first" : "last")' needs a whole number", at: current.offset)
            }
            window = first ? .first(n) : .last(n)
            advance()
        }
        let field = try expectField("a relationship field after 'join'")
        var join = BQLJoin(field: field.name, window: window, offset: start)
        if isKeyword("having") {
            advance()
            join.having = try parsePart(depth: 0)
        }
        if isKeyword("fetch") {
            advance()
            repeat {
                if case .comma = current.kind { advance() }
                guard join.fetch.count < limits.maxFetchFields else {
                    throw BQLError(.limit, "More than \(limits.maxFetchFields) fetch fields", at: current.offset)
                }
                join.fetch.append(try expectField("a field to fetch").name)
            } while current.kind == .comma
        }
        return join
    }

    /// `"sort" "by" field ("asc" | "desc")?`.
    mutating func parseSort() throws(BQLError) -> BQLSort {
        advance()
        guard isKeyword("by") else { throw unexpected("'by' after 'sort'") }
        advance()
        let thisKey = isKeyword("this")
        let field = try expectField("a field after 'sort by'")
        var sort = BQLSort(key: thisKey ? .this : .field(field.name), offset: field.offset)
        if isKeyword("asc") {
            advance()
        } else if isKeyword("desc") {
            sort.descending = true
            advance()
        }
        return sort
    }

    /// A join window count: whole digits, saturated at `BQLJoin.maxWindow` (never overflows); nil for a
    /// decimal.
    static func count(_ literal: String) -> Int? {
        var value = 0
        for b in literal.utf8 {
            guard BQLLexer.isDigit(b) else { return nil }
            value = min(BQLJoin.maxWindow, value * 10 + Int(b - UInt8(ascii: "0")))
        }
        return value
    }
}
