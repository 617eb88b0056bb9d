import XCTest
import Foundation
import Core

/// Creates `count` objects of class `Big` with a 1 MB string `s` of `a`s: rows that the regex engine takes
/// seconds each to reject with `slowRegex` (the pattern expands to about a hundred instructions, each run
/// at every one of a million positions).
func seedMegabyteRows(_ parse: ParseServer, count: Int) throws {
    let body = #"{"s":"\#(String(repeating: "a", count: 1_000_000))"}"#
    for _ in 0..<count { _ = try parse.create("Big", body) }
}

/// The `where` of the issue that found the overrun: `(.*a){25}c`.
let slowRegex = "where=" + q(#"{"s":{"$regex":"(.*a){25}c"}}"#)

/// The query time budget (spec §7.11) holds inside the regex engine: a pathological pattern over large rows
/// ends with 124 when the budget is spent, not after it has finished the rows it started.
final class ParseQueryDeadlineTests: ParseConformanceCase {
    static let budget = 2.0
    override var environment: [String: String] { ["QUARTET_PARSE_QUERY_TIMEOUT": "\(Self.budget)"] }

    func test_hardening_queryTimeout_ends_a_pathological_regex_over_large_rows() throws {
        try seedMegabyteRows(parse, count: 4)
        let started = Date()
        let j = try parse.expect(400, "GET", "/parse/classes/Big?\(slowRegex)")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(j["code"], 124, "\(j)")
        // The budget plus a margin for a loaded machine. Before the deadline was read inside the matcher, the
        // first row alone ran to its end (tens of seconds in a debug build) and the answer was 200.
        XCTAssertLessThan(elapsed, Self.budget + 3, "answered after \(elapsed) s")
        // The same with a count, which reads every candidate row.
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Big?count=1&limit=0&\(slowRegex)")["code"], 124)
        try parse.expect(200, "GET", "/parse/classes/Big?limit=1&keys=objectId")
    }
}
