extension RegexParser {
    mutating func atom() throws(RegexError) -> RegexNode {
        guard let c = peek() else { throw RegexError.syntax }
        i += 1
        switch c {
        case ".": return .any
        case "^": return .lineStart
        case "$": return .lineEnd
        case "[": return .set(try charClass())
        case "(": return try group()
        case "\\": return try escape(inClass: false).node
        case "*", "+", "?": throw RegexError.syntax
        case "{":
            i -= 1
            if (try braces()) != nil { throw RegexError.syntax }
            i += 1
            return .scalar(c)
        default: return .scalar(c)
        }
    }

    mutating func group() throws(RegexError) -> RegexNode {
        if peek() == "?" {
            i += 1
            guard let k = peek() else { throw RegexError.syntax }
            switch k {
            case ":":
                i += 1
            case "<" where peek(1) == "=" || peek(1) == "!":
                throw RegexError.unsupported
            case "<":
                i += 1
                while let d = peek(), d != ">" {
                    guard d.properties.isAlphabetic || (d.value >= 48 && d.value <= 57) || d == "_" else {
                        throw RegexError.syntax
                    }
                    i += 1
                }
                guard peek() == ">" else { throw RegexError.syntax }
                i += 1
            case "=", "!":
                guard allowLookaround else { throw RegexError.unsupported }
                i += 1
                let inner = try alternation()
                guard peek() == ")" else { throw RegexError.syntax }
                i += 1
                return .lookahead(inner, negated: k == "!")
            default:
                throw RegexError.unsupported
            }
        }
        let inner = try alternation()
        guard peek() == ")" else { throw RegexError.syntax }
        i += 1
        return inner
    }

    mutating func charClass() throws(RegexError) -> RegexSet {
        var set = RegexSet()
        if peek() == "^" { set.negated = true; i += 1 }
        var first = true
        while let c = peek() {
            if c == "]" && !first { i += 1; return set }
            first = false
            i += 1
            var low: Unicode.Scalar
            if c == "\\" {
                let e = try escape(inClass: true)
                if let cls = e.classKind { set.classes.append(cls); continue }
                guard case .scalar(let sc) = e.node else { throw RegexError.syntax }
                low = sc
            } else {
                low = c
            }
            if peek() == "-", let next = peek(1), next != "]" {
                i += 1
                var high: Unicode.Scalar
                i += 1
                if next == "\\" {
                    let e = try escape(inClass: true)
                    guard case .scalar(let sc) = e.node, e.classKind == nil else { throw RegexError.syntax }
                    high = sc
                } else {
                    high = next
                }
                guard low.value <= high.value else { throw RegexError.syntax }
                set.ranges.append(low.value...high.value)
            } else {
                set.ranges.append(low.value...low.value)
            }
        }
        throw RegexError.syntax
    }

    /// An escape after `\`: a literal, a class (`\d`...), an anchor, or refused (back-references...).
    mutating func escape(inClass: Bool) throws(RegexError) -> (node: RegexNode, classKind: (Character, Bool)?) {
        guard let c = peek() else { throw RegexError.syntax }
        i += 1
        switch c {
        case "d", "w", "s": return (.set(RegexSet(classes: [(Character(c), false)])), (Character(c), false))
        case "D", "W", "S":
            let k = Character(String(c).lowercased())
            return (.set(RegexSet(classes: [(k, true)])), (k, true))
        case "t": return (.scalar("\t"), nil)
        case "n": return (.scalar("\n"), nil)
        case "r": return (.scalar("\r"), nil)
        case "f": return (.scalar("\u{0C}"), nil)
        case "v": return (.scalar("\u{0B}"), nil)
        case "0": return (.scalar("\u{0}"), nil)
        case "x":
            if peek() == "{" {
                i += 1
                var v: UInt32 = 0, n = 0
                while let d = peek(), d != "}" {
                    guard let h = UInt32(String(d), radix: 16), n < 8 else { throw RegexError.syntax }
                    v = v &* 16 &+ h; n += 1; i += 1
                }
                guard peek() == "}", n > 0, let sc = Unicode.Scalar(v) else { throw RegexError.syntax }
                i += 1
                return (.scalar(sc), nil)
            }
            return (.scalar(try hex(2)), nil)
        case "u": return (.scalar(try hex(4)), nil)
        case "b" where !inClass: return (.wordBoundary(true), nil)
        case "B" where !inClass: return (.wordBoundary(false), nil)
        case "A" where !inClass: return (.textStart, nil)
        case "z" where !inClass: return (.textEnd, nil)
        case "Z" where !inClass: return (.textEndBeforeNewline, nil)
        case "1", "2", "3", "4", "5", "6", "7", "8", "9", "k", "g", "p", "P", "G", "K", "R", "X", "C":
            throw RegexError.unsupported
        default:
            if c.properties.isAlphabetic || (c.value >= 48 && c.value <= 57) { throw RegexError.syntax }
            return (.scalar(c), nil)
        }
    }

    mutating func hex(_ count: Int) throws(RegexError) -> Unicode.Scalar {
        var v: UInt32 = 0
        for _ in 0..<count {
            guard let d = peek(), let h = UInt32(String(d), radix: 16) else { throw RegexError.syntax }
            v = v * 16 + h
            i += 1
        }
        guard let sc = Unicode.Scalar(v) else { throw RegexError.syntax }
        return sc
    }
}
