import XCTest
@testable import BackbeamAPI

/// The limits of §6.5 (BB-084), each at its bound and one past it, and each configurable.
final class BQLLimitsTests: XCTestCase {
    private func kind(_ text: String, _ limits: BQLLimits = BQLLimits()) -> BQLError.Kind? {
        do {
            _ = try BQLParser.parse(text, limits: limits)
            return nil
        } catch { return error.kind }
    }

    private func chain(_ n: Int) -> String {
        "where " + (0..<n).map { "f\($0)=?" }.joined(separator: " and ")
    }

    func testQueryLength() {
        let base = "where a = ?"
        let exact = base + String(repeating: " ", count: 3_500 - base.count)
        XCTAssertNil(kind(exact))
        XCTAssertEqual(kind(exact + " "), .limit)
        XCTAssertEqual(kind("where a = ?", BQLLimits(maxQueryLength: 10)), .limit)
        // Measured in UTF-16 units, as the clients measure it.
        XCTAssertEqual(kind(String(repeating: "\u{1F600}", count: 1_751)), .limit)
        XCTAssertEqual(kind(String(repeating: "\u{1F600}", count: 1_750)), .syntax)
    }

    func testConstraints() throws {
        XCTAssertNil(kind(chain(200)))
        XCTAssertEqual(kind(chain(201)), .limit)
        // `having` constraints count towards the same total.
        XCTAssertEqual(kind(chain(199) + " join x having a=? and b=?"), .limit)
        XCTAssertEqual(kind(chain(3), BQLLimits(maxConstraints: 2)), .limit)
        XCTAssertEqual(try BQLParser.parse(chain(200)).placeholderCount, 200)
    }

    func testNesting() {
        let nested = { (n: Int) in "where " + String(repeating: "(", count: n) + "a=?" + String(repeating: ")", count: n) }
        XCTAssertNil(kind(nested(32)))
        XCTAssertEqual(kind(nested(33)), .limit)
        XCTAssertEqual(kind(nested(3), BQLLimits(maxDepth: 2)), .limit)
        // Depth is nesting, not the number of groups.
        XCTAssertNil(kind("where " + Array(repeating: "(a=?)", count: 40).joined(separator: " or ")))
    }

    func testJoinsAndFetch() {
        let joins = { (n: Int) in (0..<n).map { "join j\($0)" }.joined(separator: " ") }
        XCTAssertNil(kind(joins(10)))
        XCTAssertEqual(kind(joins(11)), .limit)
        let fetch = { (n: Int) in "join x fetch " + (0..<n).map { "f\($0)" }.joined(separator: ", ") }
        XCTAssertNil(kind(fetch(10)))
        XCTAssertEqual(kind(fetch(11)), .limit)
        XCTAssertEqual(kind(joins(2), BQLLimits(maxJoins: 1)), .limit)
        XCTAssertEqual(kind(fetch(2), BQLLimits(maxFetchFields: 1)), .limit)
    }

    func testParamsCountAndBound() throws {
        // BB-082 and the 1,000-params bound.
        let one = try BQLParser.parse("where a = ?")
        XCTAssertEqual(try BQLBoundQuery.bind(one, params: ["x"]).text(of: .placeholder(0)), "x")
        XCTAssertThrowsError(try BQLBoundQuery.bind(one, params: ["x", "y"])) {
            XCTAssertEqual(($0 as? BQLError)?.status, .invalidParameters)
        }
        XCTAssertThrowsError(try BQLBoundQuery.bind(try BQLParser.parse("where a = ? and b = ?"), params: ["x"])) {
            XCTAssertEqual(($0 as? BQLError)?.kind, .parameterCount)
        }
        let none = try BQLParser.parse("")
        XCTAssertNoThrow(try BQLBoundQuery.bind(none, params: []))
        let many = BQLQuery(placeholderCount: 1_001)
        XCTAssertThrowsError(try BQLBoundQuery.bind(many, params: Array(repeating: "p", count: 1_001))) {
            XCTAssertEqual(($0 as? BQLError)?.message, "More than 1000 params")
        }
        XCTAssertNoThrow(try BQLBoundQuery.bind(BQLQuery(placeholderCount: 1_000), params: Array(repeating: "p", count: 1_000)))
        XCTAssertThrowsError(try BQLBoundQuery.bind(BQLQuery(placeholderCount: 3), params: ["a", "b", "c"],
                                                    limits: BQLLimits(maxParams: 2)))
        let bound = try BQLBoundQuery.bind(BQLQuery(), params: [])
        XCTAssertEqual(bound.text(of: .placeholder(7)), "", "an index out of range never traps")
        XCTAssertEqual(bound.text(of: .number("10")), "10")
    }

    func testCollectionEntries() throws {
        let ids = (0..<5_000).map { "id\($0)" }.joined(separator: "\n")
        XCTAssertEqual(try BQLCollection.parse(ids, maxEntries: 5_000, parameter: 0).objectIDs.count, 5_000)
        XCTAssertThrowsError(try BQLCollection.parse(ids + "\nmore", maxEntries: 5_000, parameter: 0)) {
            XCTAssertEqual(($0 as? BQLError)?.status, .invalidParameters)
        }
        XCTAssertEqual(try BQLCollection.parse(ids + "\n\n\n", maxEntries: 5_000, parameter: 0).objectIDs.count, 5_000,
                       "empty entries do not count")
    }
}
