import QueryKit

/// Harness for QueryKit's regex engine: compile, then match.
enum QueryKitFuzz {
    /// Matching steps one input may spend, shared by its two matches. The server never matches a client
    /// pattern without a budget (a query's is its deadline, `RegexBudget(deadline:)`); a step limit is the
    /// deterministic form of one. Unlimited, one input could cost seconds (a 10,000-instruction program over
    /// a 4 KiB subject is 40 million steps, twice), which held the harness near 1,000 executions/s and risked
    /// the 10 s time-out; 100,000 steps still let a program at the size cap run over ten positions and a
    /// 100-instruction one over its whole subject, and inputs past it take the budget-exceeded path the
    /// server takes at its deadline.
    static let maxSteps = 100_000

    /// Input: option letters, NUL, pattern, NUL, subject (missing parts are empty). The pattern is compiled
    /// as a client query would (no lookaround) and, when the first option letter is `L`, as a password
    /// policy would; each program that compiles is matched against the subject and against the pattern,
    /// within one budget of `maxSteps`.
    static func regex(_ input: [UInt8]) -> FuzzOutcome {
        let (optionBytes, rest) = FuzzInput.split(input, at: 0)
        let (patternBytes, subjectBytes) = FuzzInput.split(rest, at: 0)
        let options = String(decoding: optionBytes.prefix(8), as: UTF8.self)
        let pattern = String(decoding: patternBytes, as: UTF8.self)
        let subject = String(decoding: subjectBytes, as: UTF8.self)
        let program: RegexProgram
        do throws(RegexError) {
            program = try RegexProgram.compile(pattern, options: options, allowLookaround: optionBytes.first == UInt8(ascii: "L"))
        } catch {
            return .refused("\(error)")
        }
        var budget = RegexBudget(maxSteps: maxSteps)
        do throws(RegexBudgetExceeded) {
            _ = try program.matches(subject, budget: &budget)
            _ = try program.matches(pattern, budget: &budget)
        } catch {
            // Spent: where the server answers with its time-out. Without a deadline, only a spent step limit
            // may stop a match.
            guard budget.stepsLeft < 0 else { return .violated("budget exceeded with \(budget.stepsLeft) steps left") }
        }
        return .accepted
    }
}
