import XCTest
import Core
import QueryKit

/// The regex engine's budget: a step limit and a deadline, checked inside one long match.
final class RegexBudgetTests: XCTestCase {
    /// About a hundred instructions, all alive at every position of a text of `a`s.
    let pathological = try? RegexProgram.compile("(.*a){25}c", options: "")
    let longText = String(repeating: "a", count: 100_000)

    func testAStepLimitStopsALongMatchPartWay() throws {
        let program = try XCTUnwrap(pathological)
        var budget = RegexBudget(maxSteps: 50_000)
        XCTAssertThrowsError(try program.matches(longText, budget: &budget)) { XCTAssertTrue($0 is RegexBudgetExceeded) }
        // It stopped soon after the limit, not at the end of the text (millions of steps).
        XCTAssertGreaterThan(budget.stepsLeft, -50_000)
    }

    func testAPassedDeadlineStopsALongMatchAtTheNextClockReading() throws {
        let program = try XCTUnwrap(pathological)
        var budget = RegexBudget(deadline: Deadline(uptimeNanoseconds: 0))
        XCTAssertThrowsError(try program.matches(longText, budget: &budget)) { XCTAssertTrue($0 is RegexBudgetExceeded) }
        XCTAssertThrowsError(try budget.checkpoint())
        var fresh = RegexBudget(deadline: .never)
        XCTAssertNoThrow(try fresh.checkpoint())
    }

    func testWithinBudgetTheAnswersAreTheUnlimitedOnes() throws {
        let cases: [(String, String, String, Bool)] = [
            ("^Ome", "", "Omelette", true), ("^ome", "i", "Omelette", true), ("\\bcat\\b", "", "concat", false),
            ("(a+)+$", "", String(repeating: "a", count: 5_000) + "b", false), ("(.*a){3}c", "", "aaac", true),
            ("^a.c$", "s", "a\nc", true),
        ]
        for (pattern, options, text, expected) in cases {
            let program = try RegexProgram.compile(pattern, options: options)
            var budget = RegexBudget(deadline: .after(seconds: 60), maxSteps: 10_000_000)
            XCTAssertEqual(try program.matches(text, budget: &budget), expected, pattern)
            XCTAssertEqual(program.matches(text), expected, pattern)
        }
    }

    func testOneBudgetBoundsTheWorkOfManyMatches() throws {
        let program = try RegexProgram.compile("(.*a){5}c", options: "")
        let value = String(repeating: "a", count: 200)
        var probe = RegexBudget()
        XCTAssertFalse(try program.matches(value, budget: &probe))
        let perMatch = Int.max - probe.stepsLeft
        XCTAssertGreaterThan(perMatch, 200)
        // Enough for three matches and a half: the fourth is abandoned.
        var shared = RegexBudget(maxSteps: perMatch * 7 / 2)
        for _ in 0..<3 { XCTAssertFalse(try program.matches(value, budget: &shared)) }
        XCTAssertThrowsError(try program.matches(value, budget: &shared)) { XCTAssertTrue($0 is RegexBudgetExceeded) }
    }

    func testLookaheadSpendsTheSameBudget() throws {
        let program = try RegexProgram.compile("^(?=.*[0-9])(?=.{8,})", options: "", allowLookaround: true)
        var roomy = RegexBudget(maxSteps: 10_000)
        XCTAssertTrue(try program.matches("abcdefg1", budget: &roomy))
        var tight = RegexBudget(maxSteps: 5)
        XCTAssertThrowsError(try program.matches("abcdefg1", budget: &tight))
    }

    /// A lookahead of about 6,000 instructions (three runs of 1,000 optional letters) that matches the empty string at once, tried at each of 3,000
    /// positions: about 18 million instructions visited. Its runs ended in a match before spending their
    /// steps, so 100,000 steps let all of it run (found by the `regex` fuzz harness as a time-out).
    func testALookaheadThatMatchesAtOnceStillSpendsItsSteps() throws {
        let program = try RegexProgram.compile("(?=a{0,1000}d{0,1000}e{0,1000})b", options: "", allowLookaround: true)
        let text = String(repeating: "c", count: 3_000)
        var budget = RegexBudget(maxSteps: 100_000)
        XCTAssertThrowsError(try program.matches(text, budget: &budget)) { XCTAssertTrue($0 is RegexBudgetExceeded) }
        // Stopped within a few positions of the limit: one position costs about 6,000 steps.
        XCTAssertGreaterThan(budget.stepsLeft, -20_000)
        var roomy = RegexBudget(maxSteps: 100_000)
        XCTAssertTrue(try program.matches("b", budget: &roomy), "the same program still answers within its budget")
        XCTAssertLessThan(roomy.stepsLeft, 100_000 - 6_000, "the sub-program's closure was spent")
    }

    func testDeadlineArithmetic() {
        XCTAssertEqual(Deadline.after(seconds: 1e12), .never)
        XCTAssertTrue(Deadline.after(seconds: -1).hasPassed)
        XCTAssertTrue(Deadline.after(seconds: .nan).hasPassed)
        XCTAssertFalse(Deadline.after(seconds: 3600).hasPassed)
        XCTAssertEqual(Deadline.never.remainingSeconds, .infinity)
        XCTAssertEqual(Deadline(uptimeNanoseconds: 0).remainingSeconds, 0)
        let soon = Deadline.after(seconds: 10), later = Deadline.after(seconds: 20)
        XCTAssertEqual(soon.earlier(later), soon)
        XCTAssertEqual(later.earlier(soon), soon)
    }
}
