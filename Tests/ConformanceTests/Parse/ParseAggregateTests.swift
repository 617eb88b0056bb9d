import XCTest
import Core

/// `/aggregate` distinct and pipelines (spec §17).
final class ParseAggregateTests: ParseConformanceCase {
    let master = ParseServer.headers(master: true)

    override func setUpWithError() throws {
        try super.setUpWithError()
        for (name, score) in [("Sean", 10), ("Sean", 20), ("Ann", 5), ("Bob", 20), ("Ann", 7)] {
            _ = try parse.create("Player", #"{"playerName":"\#(name)","score":\#(score)}"#)
        }
    }

    func agg(_ query: String) throws -> JSON { try parse.expect(200, "GET", "/parse/aggregate/Player?\(query)", headers: master)["results"] ?? .null }

    func test_PA_182_distinct() throws {
        let r = try parse.send("GET", "/parse/aggregate/Player?distinct=score")
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.text, #"{"error":"unauthorized: master key is required"}"#)
        XCTAssertEqual(try agg("distinct=score"), [5, 7, 10, 20])
        XCTAssertEqual(try agg("distinct=score&where=" + q(#"{"playerName":"Sean"}"#)), [10, 20])
        XCTAssertEqual(try agg("distinct=" + q(#""score""#)), [5, 7, 10, 20])
    }

    func test_PA_183_group_sum() throws {
        XCTAssertEqual(try agg("pipeline=" + q(#"[{"$group":{"_id":null,"total":{"$sum":"$score"}}}]"#)), [["objectId": nil, "total": 62]])
        XCTAssertEqual(try agg("pipeline=" + q(#"[{"$group":{"_id":null,"n":{"$sum":1}}}]"#)), [["objectId": nil, "n": 5]])
    }

    func test_PA_184_group_sort_skip_limit_project() throws {
        let p = #"[{"$group":{"_id":"$playerName","total":{"$sum":"$score"},"avg":{"$avg":"$score"},"lo":{"$min":"$score"},"hi":{"$max":"$score"},"n":{"$count":{}}}},{"$sort":{"total":-1}},{"$skip":1},{"$limit":2},{"$project":{"total":1}}]"#
        XCTAssertEqual(try agg("pipeline=" + q(p)), [["objectId": "Bob", "total": 20], ["objectId": "Ann", "total": 12]])
        XCTAssertEqual(try agg("pipeline=" + q(#"[{"$match":{"score":{"$gt":6}}},{"$count":"n"}]"#)), [["n": 4]])
        let future = #"{"__type":"Date","iso":"2999-01-01T00:00:00.000Z"}"#
        XCTAssertEqual(try agg("pipeline=" + q(#"[{"$match":{"createdAt":{"$gte":\#(future)}}},{"$group":{"_id":null,"n":{"$sum":1}}}]"#)), [])
        let newest = try agg("pipeline=" + q(#"[{"$group":{"_id":null,"last":{"$max":"$createdAt"}}}]"#))
        XCTAssertEqual(newest[0]?["last"]?["__type"], "Date")
    }

    func test_PA_185_stage_errors() throws {
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/aggregate/Player?pipeline=" + q(#"[{"$lookup":{}}]"#), headers: master)["code"], 102)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/aggregate/Player?pipeline=" + q(#"[{"foo":1}]"#), headers: master),
                       ["code": 102, "error": "Invalid aggregate stage 'foo'."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/aggregate/Player?pipeline=" + q(#"[{"$match":{},"$group":{"_id":null}}]"#), headers: master),
                       ["code": 102, "error": "Pipeline stages should only have one key but found $match, $group."])
    }

    func test_PA_186_parse_swift_forms() throws {
        let legacy = #"[{"match":"{\"score\":{\"$gt\":1}}"},{"$group":{"_id":null,"n":{"$sum":1}}}]"#
        XCTAssertEqual(try agg("pipeline=" + q(legacy)), [["objectId": nil, "n": 5]])
        let post = try parse.expect(200, "POST", "/parse/aggregate/Player", headers: master,
                                    body: #"{"pipeline":[{"$group":{"_id":null,"n":{"$sum":1}}}]}"#)
        XCTAssertEqual(post["results"], [["objectId": nil, "n": 5]])
    }

    func test_PA_187_group_key_name() throws {
        XCTAssertEqual(try agg("pipeline=" + q(#"[{"$group":{"objectId":null,"n":{"$sum":1}}}]"#)), [["objectId": nil, "n": 5]])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/aggregate/Player?pipeline=" + q(#"[{"$group":{"n":{"$sum":1}}}]"#), headers: master),
                       ["code": 102, "error": "Invalid parameter for query: group. Missing key _id"])
    }
}
