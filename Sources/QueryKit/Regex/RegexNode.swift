/// The syntax tree of a client regular expression (the supported PCRE subset of spec §7.5).
indirect enum RegexNode: Equatable, Sendable {
    case empty
    case scalar(Unicode.Scalar)
    case any
    case set(RegexSet)
    case lineStart, lineEnd, textStart, textEnd, textEndBeforeNewline
    case wordBoundary(Bool)
    case concat([RegexNode])
    case alternation([RegexNode])
    case repeated(RegexNode, min: Int, max: Int?)
    case lookahead(RegexNode, negated: Bool)
}

/// A character class: ranges plus class escapes, possibly negated.
struct RegexSet: Equatable, Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var classes: [(kind: Character, negated: Bool)] = []
    var negated = false

    static func == (a: RegexSet, b: RegexSet) -> Bool {
        a.ranges == b.ranges && a.negated == b.negated && a.classes.map(\.kind) == b.classes.map(\.kind)
            && a.classes.map(\.negated) == b.classes.map(\.negated)
    }

    func contains(_ c: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        var hit = matches(c)
        if !hit, caseInsensitive {
            for v in RegexCase.variants(c) where matches(v) { hit = true; break }
        }
        return hit != negated
    }

    private func matches(_ c: Unicode.Scalar) -> Bool {
        for r in ranges where r.contains(c.value) { return true }
        for (k, neg) in classes where RegexSet.classMatch(k, c) != neg { return true }
        return false
    }

    static func classMatch(_ kind: Character, _ c: Unicode.Scalar) -> Bool {
        switch kind {
        case "d": return c.value >= 48 && c.value <= 57
        case "w": return c.value < 128 && (c.properties.isAlphabetic || (c.value >= 48 && c.value <= 57) || c == "_")
        case "s": return c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}"
        default: return false
        }
    }
}

/// Simple case variants of a scalar (for the `i` flag).
enum RegexCase {
    static func variants(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        for s in [c.properties.lowercaseMapping, c.properties.uppercaseMapping] {
            let scalars = Array(s.unicodeScalars)
            if scalars.count == 1, let f = scalars.first, f != c { out.append(f) }
        }
        return out
    }

    static func fold(_ c: Unicode.Scalar) -> Unicode.Scalar {
        let scalars = Array(c.properties.lowercaseMapping.unicodeScalars)
        return scalars.count == 1 ? scalars[0] : c
    }
}
