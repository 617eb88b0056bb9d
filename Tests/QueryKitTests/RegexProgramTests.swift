import XCTest
import QueryKit

/// The safe regex engine: the supported subset, refused features, the size cap and literal forms.
final class RegexProgramTests: XCTestCase {
    func testRegexEngine() throws {
        func m(_ p: String, _ s: String, _ o: String = "") throws -> Bool { try RegexProgram.compile(p, options: o).matches(s) }
        XCTAssertTrue(try m("^Ome", "Omelette"))
        XCTAssertTrue(try m("^ome", "Omelette", "i"))
        XCTAssertTrue(try m("l{2}", "hello"))
        XCTAssertTrue(try m("^l{3}", "lll x"))
        XCTAssertTrue(try m("a|b", "xxb"))
        XCTAssertTrue(try m("\\d+\\.\\d{2}$", "price 12.50"))
        XCTAssertTrue(try m("^a.c$", "abc"))
        XCTAssertFalse(try m("^a.c$", "a\nc"))
        XCTAssertTrue(try m("^a.c$", "a\nc", "s"))
        XCTAssertTrue(try m("^b", "a\nb", "m"))
        XCTAssertTrue(try m("\\bcat\\b", "a cat!"))
        XCTAssertFalse(try m("\\bcat\\b", "concat"))
        XCTAssertTrue(try m("[^a-c]x", "dx"))
        XCTAssertTrue(try m("(?i)HELLO", "hello"))
        XCTAssertTrue(try m("\\Qa.b*c\\E", "xa.b*cx"))
        XCTAssertFalse(try m("\\Qa.b*c\\E", "aXbbc"))
        XCTAssertTrue(try m("^a*?{$", "aa{"))
        XCTAssertTrue(try m("^(?:a*)*$", "aaa"))
        let long = String(repeating: "a", count: 50_000) + "b"
        XCTAssertFalse(try m("(a+)+$", long))
        for unsupported in ["(a)\\1", "(?=x)", "(?<=x)", "a++", "(?>a)"] {
            XCTAssertThrowsError(try RegexProgram.compile(unsupported, options: "")) { XCTAssertEqual($0 as? RegexError, .unsupported) }
        }
        // A quantifier cannot follow a quantifier ("nothing to repeat" in PCRE and JavaScript); a lazy `?`
        // and a `{` that opens no bounds are not quantifiers.
        for bad in ["[", "(", "a{2,1}", "*a", "a**", "a+*", "a??*", "a*?+?", "a{2}{3}", "a{2}*", "(a)?*", "a" + String(repeating: "*", count: 4_000)] {
            XCTAssertThrowsError(try RegexProgram.compile(bad, options: ""), bad) { XCTAssertEqual($0 as? RegexError, .syntax) }
        }
        XCTAssertTrue(try RegexProgram.compile("^(?=.*[0-9])(?=.{8,})", options: "", allowLookaround: true).matches("abcdefg1"))
        XCTAssertFalse(try RegexProgram.compile("^(?=.*[0-9])(?=.{8,})", options: "", allowLookaround: true).matches("abc1"))
    }

    func testProgramSizeIsCapped() {
        XCTAssertThrowsError(try RegexProgram.compile("(?:a{1000}){100}", options: "")) { XCTAssertEqual($0 as? RegexError, .unsupported) }
        XCTAssertThrowsError(try RegexProgram.compile("a{1001}", options: "")) { XCTAssertEqual($0 as? RegexError, .unsupported) }
        XCTAssertNoThrow(try RegexProgram.compile("a{1000}", options: ""))
    }

    /// A lookahead is one instruction of its parent but brings its own program, copied by each repetition of
    /// its group: the cap counts those programs too, so these are refused at compile time instead of building
    /// a million (and, nested once more, a billion) instructions.
    func testLookaheadProgramsCountAgainstTheCap() throws {
        for bomb in ["((?=a{1000})b){1000}", "((?=((?=a{1000})b){1000})b){1000}", "(?=((?=a{1000})b){10})"] {
            XCTAssertThrowsError(try RegexProgram.compile(bomb, options: "", allowLookaround: true), bomb) {
                XCTAssertEqual($0 as? RegexError, .unsupported)
            }
        }
        // Below the cap, lookahead inside a repeated group still compiles and matches.
        let program = try RegexProgram.compile("^((?=[a-z]{3})[a-z]){5}", options: "", allowLookaround: true)
        XCTAssertTrue(program.matches("abcdefg"))
        XCTAssertFalse(program.matches("abcdef"))
    }

    func testLiteralForms() throws {
        XCTAssertEqual(try RegexProgram.compile("^\\Qab\\E", options: "").literal,
                       RegexLiteral(text: "ab", anchoredStart: true, anchoredEnd: false, caseInsensitive: false))
        XCTAssertEqual(try RegexProgram.compile("\\Qab\\E\\z", options: "i").literal,
                       RegexLiteral(text: "ab", anchoredStart: false, anchoredEnd: true, caseInsensitive: true))
        XCTAssertNil(try RegexProgram.compile("a+", options: "").literal)
        XCTAssertNil(try RegexProgram.compile("^é", options: "i").literal)
        // `$` also matches before a final newline, so it is no end anchor for a literal.
        XCTAssertNil(try RegexProgram.compile("ab$", options: "").literal)
        // With `m`, `^` is a line start, not the start of the value.
        XCTAssertEqual(try RegexProgram.compile("^ab", options: "m").literal?.anchoredStart, nil)
        XCTAssertEqual(try RegexProgram.compile("ab", options: "").literal,
                       RegexLiteral(text: "ab", anchoredStart: false, anchoredEnd: false, caseInsensitive: false))
    }

    /// The refusals name no engine internals; callers render them in their own wire format.
    func testErrorDescriptions() {
        XCTAssertEqual(RegexError.syntax.description, "invalid regular expression")
        XCTAssertEqual(RegexError.unsupported.description, "unsupported regular expression feature")
    }
}
