import XCTest
import Core
@testable import ParseAPI

/// The pure pieces of query handling: dates, relative times, regex refusals and list parameters.
final class QueryCompilerTests: XCTestCase {
    func testDateNormalisation() {
        XCTAssertEqual(ParseDate.normalize("2024-01-01T00:00:00+02:00"), "2023-12-31T22:00:00.000Z")
        XCTAssertEqual(ParseDate.normalize("2024-01-01t00:00:00.123456z"), "2024-01-01T00:00:00.123Z")
        XCTAssertEqual(ParseDate.normalize("0000-01-01T00:00:00Z"), "0000-01-01T00:00:00.000Z")
        XCTAssertEqual(ParseDate.normalize("2024-02-29T23:59:59.5-00:30"), "2024-03-01T00:29:59.500Z")
        for bad in ["yesterday", "2024-02-30T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "2024-01-01T24:00:00Z"] {
            XCTAssertNil(ParseDate.normalize(bad), bad)
        }
        XCTAssertEqual(ParseDate.format(epochMillis: 1_700_000_000_123), "2023-11-14T22:13:20.123Z")
    }

    func testDateFormattingAtTheEdges() {
        XCTAssertEqual(ParseDate.format(epochMillis: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(ParseDate.format(epochMillis: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(ParseDate.format(epochMillis: 951_782_400_007), "2000-02-29T00:00:00.007Z")
        XCTAssertEqual(ParseDate.format(epochMillis: 253_402_300_799_999), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(ParseDate.format(epochMillis: -62_167_219_200_000), "0000-01-01T00:00:00.000Z")
        // Years that do not fit four digits have no text form.
        XCTAssertEqual(ParseDate.format(epochMillis: 253_402_300_800_000), "")
        XCTAssertEqual(ParseDate.format(epochMillis: -62_167_219_200_001), "")
        XCTAssertEqual(ParseDate.now().utf8.count, 24)
    }

    func testRelativeTime() throws {
        let now = 1_700_000_000_000
        XCTAssertEqual(try RelativeTime.resolve("now", op: "$lt", nowMillis: now), ParseDate.format(epochMillis: now))
        XCTAssertEqual(try RelativeTime.resolve("3 days ago", op: "$gt", nowMillis: now), ParseDate.format(epochMillis: now - 3 * 86_400_000))
        XCTAssertEqual(try RelativeTime.resolve("in 1 hr 2 mins", op: "$lt", nowMillis: now),
                       ParseDate.format(epochMillis: now + 3_720_000))
        XCTAssertThrowsError(try RelativeTime.resolve("in 1 day ago", op: "$lt")) {
            XCTAssertEqual(($0 as? ParseError)?.message, "bad $relativeTime ($lt) value. Time cannot have both 'in' and 'ago'")
        }
        XCTAssertThrowsError(try RelativeTime.resolve("3 days", op: "$lt"))
        XCTAssertThrowsError(try RelativeTime.resolve("in 1", op: "$lt"))
        XCTAssertThrowsError(try RelativeTime.resolve("in x days", op: "$lt"))
    }

    /// Patterns the shared engine refuses answer 102 (spec §7.5); the engine itself is tested in QueryKitTests.
    func testRefusedRegexesAnswer102() throws {
        for unsupported in ["(a)\\1", "(?=x)", "(?<=x)", "a++", "(?>a)", "(?:a{1000}){100}"] {
            XCTAssertThrowsError(try ParseRegex.compile(unsupported, options: "")) {
                XCTAssertEqual($0 as? ParseError, ParseError(102, "Unsupported regular expression feature."))
            }
        }
        for bad in ["[", "(", "a{2,1}", "*a"] {
            XCTAssertThrowsError(try ParseRegex.compile(bad, options: ""), bad) {
                XCTAssertEqual($0 as? ParseError, ParseError(102, "Invalid regular expression."))
            }
        }
        XCTAssertTrue(try ParseRegex.compile("^(?=.*[0-9])(?=.{8,})", options: "", allowLookaround: true).matches("abcdefg1"))
        XCTAssertTrue(try ParseRegex.compile("^ome", options: "i").matches("Omelette"))
    }

    func testListParameters() throws {
        XCTAssertEqual(try QueryOptions.list(["a", "b"]), ["a", "b"])
        XCTAssertEqual(try QueryOptions.list("a, b,,c"), ["a", "b", "c"])
        XCTAssertEqual(try QueryOptions.list([["-x", "y"]]), ["-x", "y"])
        XCTAssertThrowsError(try QueryOptions.list(5))
    }

    func testQueryKeyGrammar() {
        XCTAssertTrue(WhereCompiler.isQueryKey("a.b_c"))
        for bad in ["$where", "_rperm", "a..b", "a.", "1a", "a b"] { XCTAssertFalse(WhereCompiler.isQueryKey(bad), bad) }
    }
}
