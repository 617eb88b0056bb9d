import XCTest
import Core

/// `$text` full-text search through SQLite FTS5 (spec §7.8).
final class ParseTextSearchTests: ParseConformanceCase {
    func search(_ term: String, extra: String = "") throws -> [JSON] {
        let w = #"{"name":{"$text":{"$search":{"$term":\#(JSON.string(term).serialized())}}}}"#
        return try parse.expect(200, "GET", "/parse/classes/Sauce?where=" + q(w) + extra)["results"]?.arrayValue ?? []
    }

    func test_PA_088_text_search() throws {
        _ = try parse.create("Sauce", #"{"name":"Big Daddy's Sauce"}"#)
        _ = try parse.create("Sauce", #"{"name":"Dad's"}"#)
        _ = try parse.create("Sauce", #"{"name":"daddy daddy daddy"}"#)
        XCTAssertEqual(Set(try search("daddy").compactMap { $0["name"]?.stringValue }), ["Big Daddy's Sauce", "daddy daddy daddy"])
        let ranked = try search("daddy", extra: "&order=$score&keys=$score,name")
        XCTAssertEqual(ranked.count, 2)
        XCTAssertNotNil(ranked.first?["score"]?.doubleValue)
        XCTAssertEqual(ranked.first?["name"], "daddy daddy daddy")
    }

    func test_PA_089_text_errors() throws {
        _ = try parse.create("Sauce", #"{"name":"x"}"#)
        for (op, msg) in [(#"{"$search":"x"}"#, "bad $text: $search, should be object"),
                          (#"{"$search":{"$term":5}}"#, "bad $text: $term, should be string"),
                          (#"{"$search":{"$term":"x","$caseSensitive":"yes"}}"#, "bad $text: $caseSensitive, should be boolean")] {
            XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Sauce?where=" + q(#"{"name":{"$text":\#(op)}}"#)),
                           ["code": 107, "error": .string(msg)])
        }
        _ = try search(#"a" OR "b NEAR( *"#)
    }

    func test_PA_090_index_follows_writes() throws {
        let id = try parse.create("Sauce", #"{"name":"tomato"}"#)
        XCTAssertEqual(try search("tomato").count, 1)
        try parse.expect(200, "PUT", "/parse/classes/Sauce/\(id)", body: #"{"name":"basil"}"#)
        XCTAssertEqual(try search("tomato").count, 0)
        XCTAssertEqual(try search("basil").count, 1)
        try parse.expect(200, "DELETE", "/parse/classes/Sauce/\(id)")
        XCTAssertEqual(try search("basil").count, 0)
    }
}
