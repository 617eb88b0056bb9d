import QueryKit

/// Harness for QueryKit's regex engine: compile, then match.
enum QueryKitFuzz {
    /// Input: option letters, NUL, pattern, NUL, subject (missing parts are empty). The pattern is compiled
    /// as a client query would (no lookaround) and, when the first option letter is `L`, as a password
    /// policy would; each program that compiles is matched against the subject and against the pattern.
    static func regex(_ input: [UInt8]) -> FuzzOutcome {
        let (optionBytes, rest) = FuzzInput.split(input, at: 0)
        let (patternBytes, subjectBytes) = FuzzInput.split(rest, at: 0)
        let options = String(decoding: optionBytes.prefix(8), as: UTF8.self)
        let pattern = String(decoding: patternBytes, as: UTF8.self)
        let subject = String(decoding: subjectBytes, as: UTF8.self)
        do throws(RegexError) {
            let program = try RegexProgram.compile(pattern, options: options, allowLookaround: optionBytes.first == UInt8(ascii: "L"))
            _ = program.matches(subject)
            _ = program.matches(pattern)
            return .accepted
        } catch {
            return .refused("\(error)")
        }
    }
}
