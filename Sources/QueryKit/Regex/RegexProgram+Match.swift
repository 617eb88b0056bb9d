extension RegexProgram {
    /// Whether the pattern matches anywhere in `text` (unanchored search, as `$regex` means), however long
    /// that takes (it is linear in the text, but a long text and a large program multiply).
    public func matches(_ text: String) -> Bool {
        var budget = RegexBudget.unlimited
        // An unlimited budget is never exceeded.
        return (try? matches(text, budget: &budget)) ?? false
    }

    /// `matches(_:)` within `budget`: throws `RegexBudgetExceeded` as soon as the budget is spent, however
    /// far into the text the search is.
    public func matches(_ text: String, budget: inout RegexBudget) throws(RegexBudgetExceeded) -> Bool {
        let input = Array(text.unicodeScalars)
        return try run(input, from: 0, anchored: false, budget: &budget)
    }

    /// Pike VM: the thread list holds each program counter at most once per input position. Every program
    /// counter visited is one step of `budget`, spent once per input position, and a run also spends its
    /// program's size (its `mark` table), so a lookahead sub-program tried at every position of the text pays
    /// for itself even where it matches or fails at once. Steps are also spent before a match is reported:
    /// a run that ends in a match has still done its work (before, a lookahead of 6,000 instructions that
    /// matched the empty string at once cost its closure at every position of a 3,000-character text, tens of
    /// millions of steps, without spending any).
    func run(_ input: [Unicode.Scalar], from start: Int, anchored: Bool, budget: inout RegexBudget)
        throws(RegexBudgetExceeded) -> Bool {
        let n = insts.count
        try budget.spend(n)
        var current: [Int] = []
        var next: [Int] = []
        var mark = [Int](repeating: -1, count: n)
        var generation = 0
        var stack: [Int] = []
        var steps = 0

        func add(_ list: inout [Int], _ pc0: Int, _ pos: Int) throws(RegexBudgetExceeded) -> Bool {
            stack.append(pc0)
            while let pc = stack.popLast() {
                guard pc < n, mark[pc] != generation else { continue }
                mark[pc] = generation
                steps &+= 1
                switch insts[pc] {
                case .jump(let t): stack.append(t)
                case .split(let a, let b):
                    stack.append(b)
                    stack.append(a)
                case .assert(let node):
                    if check(node, input, pos) { stack.append(pc + 1) }
                case .lookahead(let sub, let negated):
                    if try sub.run(input, from: pos, anchored: true, budget: &budget) != negated { stack.append(pc + 1) }
                case .match:
                    stack.removeAll()
                    return true
                default:
                    list.append(pc)
                }
            }
            return false
        }

        var pos = start
        generation += 1
        if try add(&current, 0, pos) {
            try budget.spend(steps)
            return true
        }
        while true {
            if current.isEmpty && (anchored || pos >= input.count) { return false }
            guard pos < input.count else { return false }
            let c = caseInsensitive ? RegexCase.fold(input[pos]) : input[pos]
            generation += 1
            next.removeAll(keepingCapacity: true)
            steps &+= current.count
            for pc in current {
                var ok = false
                switch insts[pc] {
                case .scalar(let s): ok = s == c
                case .any: ok = dotAll || input[pos] != "\n"
                case .set(let set): ok = set.contains(input[pos], caseInsensitive: caseInsensitive)
                default: ok = false
                }
                if ok, try add(&next, pc + 1, pos + 1) {
                    try budget.spend(steps)
                    return true
                }
            }
            pos += 1
            // Unanchored search: a new thread starts at every position.
            if !anchored, try add(&next, 0, pos) {
                try budget.spend(steps)
                return true
            }
            swap(&current, &next)
            try budget.spend(steps)
            steps = 0
        }
    }

    private func check(_ node: RegexNode, _ input: [Unicode.Scalar], _ pos: Int) -> Bool {
        switch node {
        case .textStart: return pos == 0
        case .textEnd: return pos == input.count
        case .textEndBeforeNewline:
            return pos == input.count || (pos == input.count - 1 && input[pos] == "\n")
        case .lineStart:
            return pos == 0 || (multiline && input[pos - 1] == "\n")
        case .lineEnd:
            if pos == input.count || (pos == input.count - 1 && input[pos] == "\n") { return true }
            return multiline && input[pos] == "\n"
        case .wordBoundary(let want):
            let before = pos > 0 && RegexSet.classMatch("w", input[pos - 1])
            let after = pos < input.count && RegexSet.classMatch("w", input[pos])
            return (before != after) == want
        default: return false
        }
    }
}
