import XCTest
import Core
import HTTP
@testable import CouchAPI

/// `_all_docs` parameters (spec §3.6): where they come from, their types, and the ranges they select.
final class AllDocsOptionsTests: XCTestCase {
    private func options(_ text: String, body: JSONObject? = nil) throws -> AllDocsOptions {
        try AllDocsOptions(query: QueryParameters(form: try FormParameters.parse(Substring(text))), body: body)
    }

    private func reason(_ text: String, body: JSONObject? = nil) -> String? {
        do {
            _ = try options(text, body: body)
            return nil
        } catch {
            return (error as? CouchError)?.reason
        }
    }

    func testBodyMembersTakeTheirJSONTypesAndTheQueryStringWins() throws {
        let o = try options("limit=1", body: ["limit": .int(5), "skip": .string("2"), "include_docs": .bool(true),
                                               "keys": .array([.string("a")])])
        XCTAssertEqual(o.limit, 1)
        XCTAssertEqual(o.skip, 2)
        XCTAssertTrue(o.includeDocs)
        XCTAssertEqual(o.keys, [.string("a")])
        XCTAssertEqual(reason("", body: ["limit": .double(1.5)]), #"Invalid value for integer: "1.5""#)
        XCTAssertEqual(reason("", body: ["descending": .int(1)]), #"Invalid boolean parameter: "1""#)
        XCTAssertEqual(reason("", body: ["keys": .string("a")]), "`keys` body member must be an array.")
        XCTAssertEqual(reason("keys=%7B%7D"), "`keys` parameter must be an array.")
        XCTAssertEqual(reason("keys=%5B%5D&end_key=%22a%22"), "`keys` is incompatible with `key`, `start_key` and `end_key`")
        XCTAssertEqual(reason("skip=-3"), #"Invalid value for positive integer: "-3""#)
    }

    func testRangesInBothDirections() throws {
        var o = try options("startkey=%22b%22&endkey=%22d%22&inclusive_end=false")
        XCTAssertEqual(o.range, KeyRange(low: KeyBound("b", inclusive: true), high: KeyBound("d", inclusive: false)))
        XCTAssertEqual(o.before, KeyRange(high: KeyBound("b", inclusive: false)))
        o = try options("descending=true&start_key=%22d%22&end_key=%22b%22&inclusive_end=false")
        XCTAssertEqual(o.range, KeyRange(low: KeyBound("b", inclusive: false), high: KeyBound("d", inclusive: true)))
        XCTAssertEqual(o.before, KeyRange(low: KeyBound("d", inclusive: false)))
        // `key` is both ends.
        o = try options("key=%22c%22")
        XCTAssertEqual(o.range, KeyRange(low: KeyBound("c", inclusive: true), high: KeyBound("c", inclusive: true)))
        // Keys that are not strings sort before every id.
        XCTAssertEqual(try options("startkey=1").range, KeyRange())
        XCTAssertNil(try options("endkey=%7B%7D").range)
        XCTAssertNil(try options("descending=true&startkey=null").range)
        XCTAssertEqual(try options("descending=true&startkey=null").before, KeyRange())
        XCTAssertEqual(try options("descending=true&endkey=false").range, KeyRange())
        XCTAssertNil(try options("").before)
    }
}
