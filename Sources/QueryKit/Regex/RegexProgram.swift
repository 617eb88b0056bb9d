/// A regex that is a single literal with optional anchors. A store can answer it with plain string
/// comparisons (equality, prefix, suffix, containment), which indexes and engines without a regex
/// function handle, instead of running the engine on every candidate.
public struct RegexLiteral: Sendable, Equatable {
    /// The literal text as the pattern spells it (compare case-insensitively when `caseInsensitive`).
    public var text: String
    /// The match must start at the beginning of the value (`^` without `m`, or `\A`).
    public var anchoredStart: Bool
    /// The match must end at the end of the value (`\z`; `$` also matches before a final newline, so a
    /// pattern ending in `$` has no literal form).
    public var anchoredEnd: Bool
    /// The `i` flag; only set when the text is ASCII, so that simple lowercasing compares correctly.
    public var caseInsensitive: Bool

    public init(text: String, anchoredStart: Bool, anchoredEnd: Bool, caseInsensitive: Bool) {
        self.text = text
        self.anchoredStart = anchoredStart
        self.anchoredEnd = anchoredEnd
        self.caseInsensitive = caseInsensitive
    }
}

/// A compiled client regular expression (the PCRE subset of Parse's `$regex`, also used for Couch
/// selectors and BQL), matched by a Pike VM: run time is O(program × input) for every pattern, so
/// catastrophic patterns like `(a+)+$` cannot blow up.
public struct RegexProgram: Sendable {
    enum Inst: Sendable {
        case scalar(Unicode.Scalar)
        case any
        case set(RegexSet)
        case assert(RegexNode)
        case lookahead(RegexProgram, negated: Bool)
        case split(Int, Int)
        case jump(Int)
        case match
    }

    var insts: [Inst] = []
    /// Instructions of this program and of every lookahead sub-program in it, nested ones included: what
    /// `maxInstructions` caps. A lookahead is one instruction of its parent but carries its own program, and
    /// a repeated group copies it, so counting only `insts` let `((?=a{1000})b){1000}` build a million
    /// instructions (and one nesting level more, a billion).
    var weight = 0
    var caseInsensitive = false
    var multiline = false
    var dotAll = false
    /// Non-nil when the pattern is one literal (see `RegexLiteral`).
    public internal(set) var literal: RegexLiteral?

    /// Counted repetition is expanded, so a short pattern can make a long program; matching costs
    /// program size × text length, so the program is capped (lookahead sub-programs included, see `weight`).
    public static let maxInstructions = 10_000

    /// Compiles `pattern` with option letters (`i` case-insensitive, `m` multiline anchors, `s` dot matches
    /// newline, `x` extended; other letters are ignored, callers validate their own option syntax); leading
    /// inline flag groups such as `(?i)` are honoured. Lookahead (`(?=`, `(?!`) is refused unless
    /// `allowLookaround` (password policies use it; client queries do not get it).
    public static func compile(_ pattern: String, options: String, allowLookaround: Bool = false)
        throws(RegexError) -> RegexProgram {
        var flags = Set(options)
        var body = Substring(pattern)
        // Leading inline flag groups such as (?i) or (?im).
        while body.hasPrefix("(?") {
            let rest = body.dropFirst(2)
            guard let close = rest.firstIndex(of: ")") else { break }
            let letters = rest[rest.startIndex..<close]
            guard !letters.isEmpty, letters.allSatisfy({ "imsx".contains($0) }) else { break }
            for l in letters { flags.insert(l) }
            body = rest[rest.index(after: close)...]
        }
        var parser = RegexParser(String(body), extended: flags.contains("x"), allowLookaround: allowLookaround)
        let tree = try parser.parse()
        var p = RegexProgram()
        p.caseInsensitive = flags.contains("i")
        p.multiline = flags.contains("m")
        p.dotAll = flags.contains("s")
        try p.emit(tree, allowLookaround: allowLookaround)
        p.insts.append(.match)
        p.literal = Self.literalForm(tree, p)
        return p
    }

    private static func literalForm(_ tree: RegexNode, _ p: RegexProgram) -> RegexLiteral? {
        var items: [RegexNode]
        if case .concat(let xs) = tree { items = xs } else { items = [tree] }
        var start = false, end = false
        if let f = items.first, f == .textStart || (f == .lineStart && !p.multiline) { start = true; items.removeFirst() }
        if let l = items.last, l == .textEnd || ((l == .lineEnd || l == .textEndBeforeNewline) && !p.multiline) {
            // `$` also matches before a final newline; only treat it as an end anchor for texts without one.
            end = l == .textEnd
            if !end { return nil }
            items.removeLast()
        }
        var text = String.UnicodeScalarView()
        for item in items {
            guard case .scalar(let c) = item else { return nil }
            text.append(c)
        }
        let s = String(text)
        if p.caseInsensitive && !s.unicodeScalars.allSatisfy({ $0.isASCII }) { return nil }
        return RegexLiteral(text: s, anchoredStart: start, anchoredEnd: end, caseInsensitive: p.caseInsensitive)
    }

    private mutating func push(_ i: Inst) throws(RegexError) -> Int {
        guard weight < Self.maxInstructions else { throw RegexError.unsupported }
        weight += 1
        insts.append(i)
        return insts.count - 1
    }

    private mutating func emit(_ n: RegexNode, allowLookaround: Bool) throws(RegexError) {
        switch n {
        case .empty: break
        case .scalar(let c): _ = try push(.scalar(caseInsensitive ? RegexCase.fold(c) : c))
        case .any: _ = try push(.any)
        case .set(let s): _ = try push(.set(s))
        case .lineStart, .lineEnd, .textStart, .textEnd, .textEndBeforeNewline, .wordBoundary:
            _ = try push(.assert(n))
        case .concat(let xs):
            for x in xs { try emit(x, allowLookaround: allowLookaround) }
        case .alternation(let xs):
            var jumps: [Int] = []
            for (k, x) in xs.enumerated() {
                if k < xs.count - 1 {
                    let split = try push(.split(0, 0))
                    try emit(x, allowLookaround: allowLookaround)
                    jumps.append(try push(.jump(0)))
                    insts[split] = .split(split + 1, insts.count)
                } else {
                    try emit(x, allowLookaround: allowLookaround)
                }
            }
            for j in jumps { insts[j] = .jump(insts.count) }
        case .repeated(let x, let minR, let maxR):
            for _ in 0..<minR { try emit(x, allowLookaround: allowLookaround) }
            if let maxR {
                var splits: [Int] = []
                for _ in minR..<max(minR, maxR) {
                    splits.append(try push(.split(0, 0)))
                    try emit(x, allowLookaround: allowLookaround)
                }
                for s in splits { insts[s] = .split(s + 1, insts.count) }
            } else {
                let split = try push(.split(0, 0))
                try emit(x, allowLookaround: allowLookaround)
                _ = try push(.jump(split))
                insts[split] = .split(split + 1, insts.count)
            }
        case .lookahead(let inner, let negated):
            var sub = RegexProgram()
            sub.caseInsensitive = caseInsensitive
            sub.multiline = multiline
            sub.dotAll = dotAll
            // The sub-program starts from what the parent already holds, so it stops at the same cap.
            sub.weight = weight
            try sub.emit(inner, allowLookaround: allowLookaround)
            sub.insts.append(.match)
            weight = sub.weight
            _ = try push(.lookahead(sub, negated: negated))
        }
    }
}
