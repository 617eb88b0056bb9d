/// Recursive-descent parser over Unicode scalars; nesting and repetition bounds are checked.
struct RegexParser {
    var s: [Unicode.Scalar]
    var i = 0
    var extended: Bool
    let allowLookaround: Bool
    var depth = 0

    init(_ pattern: String, extended: Bool, allowLookaround: Bool) {
        s = Array(pattern.unicodeScalars)
        self.extended = extended
        self.allowLookaround = allowLookaround
    }

    var atEnd: Bool { i >= s.count }
    func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

    mutating func parse() throws(RegexError) -> RegexNode {
        let node = try alternation()
        guard atEnd else { throw RegexError.syntax }
        return node
    }

    mutating func alternation() throws(RegexError) -> RegexNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < 200 else { throw RegexError.unsupported }
        var branches = [try concatenation()]
        while peek() == "|" {
            i += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func concatenation() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek(), c != "|", c != ")" {
            if extended {
                if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
                if c == "#" { while let d = peek(), d != "\n" { i += 1 }; continue }
            }
            if c == "\\", peek(1) == "Q" {
                i += 2
                while !atEnd {
                    if peek() == "\\", peek(1) == "E" { i += 2; break }
                    if let q = peek() { items.append(.scalar(q)) }
                    i += 1
                }
                continue
            }
            var atom = try self.atom()
            atom = try quantified(atom)
            items.append(atom)
        }
        if items.isEmpty { return .empty }
        return items.count == 1 ? items[0] : .concat(items)
    }

    /// The atom with its quantifier, if one follows. A second quantifier (`a**`, `a{2}{3}`, `a+?*`) is a
    /// syntax error, as in PCRE and JavaScript ("nothing to repeat"): accepting it let a 4 KB pattern nest
    /// thousands of repetitions, and compiling, comparing and freeing that tree recurse once per level.
    mutating func quantified(_ atom: RegexNode) throws(RegexError) -> RegexNode {
        guard let (minR, maxR) = try quantifier() else { return atom }
        if peek() == "?" { i += 1 } else if peek() == "+" { throw RegexError.unsupported }
        switch atom {
        case .lineStart, .lineEnd, .textStart, .textEnd, .textEndBeforeNewline, .wordBoundary, .lookahead:
            throw RegexError.syntax
        default: break
        }
        guard try quantifier() == nil else { throw RegexError.syntax }
        return .repeated(atom, min: minR, max: maxR)
    }

    /// Consumes a quantifier (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`) and returns its bounds; nil (and
    /// nothing consumed) when none follows.
    private mutating func quantifier() throws(RegexError) -> (min: Int, max: Int?)? {
        switch peek() {
        case "*": i += 1; return (0, nil)
        case "+": i += 1; return (1, nil)
        case "?": i += 1; return (0, 1)
        case "{": return try braces().map { (min: $0.0, max: $0.1) }
        default: return nil
        }
    }

    /// `{n}`, `{n,}`, `{n,m}`; nil (and nothing consumed) when the brace is a literal.
    mutating func braces() throws(RegexError) -> (Int, Int?)? {
        var j = i + 1
        func number() -> Int? {
            var v = 0, n = 0
            while j < s.count, s[j].value >= 48, s[j].value <= 57 {
                v = min(v * 10 + Int(s[j].value - 48), 100_000); j += 1; n += 1
            }
            return n > 0 ? v : nil
        }
        guard let a = number() else { return nil }
        var b: Int? = a
        if j < s.count, s[j] == "," {
            j += 1
            b = number()
        }
        guard j < s.count, s[j] == "}" else { return nil }
        i = j + 1
        // Counted repetition bounds are capped (spec §7.5).
        guard a <= 1000, (b ?? 0) <= 1000 else { throw RegexError.unsupported }
        if let b, b < a { throw RegexError.syntax }
        return (a, b)
    }
}
