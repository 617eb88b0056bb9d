import XCTest
import Core
import Foundation

/// Writes that used to hold the single writer for seconds (issue 19, item 2), sent to the real binary: each is
/// refused at its limit or answered promptly, and nothing of a refused write is stored.
final class ParseWriteLimitTests: ParseConformanceCase {
    /// 40,000 new top-level keys from an anonymous client: refused with Parse's 107, no class appears.
    func testFortyThousandNewTopLevelKeysAreRefused() throws {
        let body = "{" + (0..<40_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/Flood", body: body),
                       ["code": 107, "error": "Too many fields in one write: the maximum is 1000."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/schemas/Flood", headers: ParseServer.headers(master: true))["code"], 103)
        XCTAssertEqual(try parse.masterCount("Flood"), 0)
    }

    /// AddUnique and Remove at the default limit of 10,000 objects, with Parse Server's equality: numbers by
    /// value (`1` and `1.0` are one), pointers by class and id, objects whatever their key order.
    func testAddUniqueAndRemoveAtTheLimitKeepParseEquality() throws {
        let id = try parse.create("Tags", #"{"a":[1,{"x":1,"y":2},{"__type":"Pointer","className":"P","objectId":"p1"}]}"#)
        var objects = (0..<9_997).map { "\($0)" }
        objects += [#"{"y":2,"x":1}"#, #"{"__type":"Pointer","className":"P","objectId":"p1"}"#, "1.0"]
        let added = try parse.expect(200, "PUT", "/parse/classes/Tags/\(id)",
                                     body: #"{"a":{"__op":"AddUnique","objects":[\#(objects.joined(separator: ","))]}}"#)
        let list = try XCTUnwrap(added["a"]?.arrayValue)
        // The three stored values, then 0 and 2...9996 (1 is already there); the last three duplicate stored ones.
        XCTAssertEqual(list.count, 3 + 9_996)
        XCTAssertEqual(Array(list.prefix(5)), [1, ["x": 1, "y": 2], ["__type": "Pointer", "className": "P", "objectId": "p1"], 0, 2])
        let tooMany = "[" + (0..<10_001).map { "\($0)" }.joined(separator: ",") + "]"
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/Tags/\(id)", body: #"{"a":{"__op":"Remove","objects":\#(tooMany)}}"#),
                       ["code": 107, "error": "Too many objects in one Remove operation: the maximum is 10000."])
        let removal = "[" + (0..<9_998).map { "\($0).0" }.joined(separator: ",") + #",{"__type":"Pointer","className":"P","objectId":"p1","extra":1}]"#
        let removed = try parse.expect(200, "PUT", "/parse/classes/Tags/\(id)", body: #"{"a":{"__op":"Remove","objects":\#(removal)}}"#)
        XCTAssertEqual(removed["a"], [["x": 1, "y": 2]])
    }

    /// A dotted path of 200,000 segments held the writer for minutes, and one of 600 left an object too
    /// deep to be read back for any later update. Paths have at most 100 segments (107).
    func testDeepDottedPathsAreRefusedAndTheObjectStaysWritable() throws {
        let id = try parse.create("Deep", #"{"o":{}}"#)
        for n in [200_000, 600, 101] {
            let path = "o." + Array(repeating: "a", count: n - 1).joined(separator: ".")
            XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/Deep/\(id)", body: "{\"\(path)\":1}"),
                           ["code": 107, "error": "A dotted path may have at most 100 segments."], "\(n) segments")
        }
        let hundred = "o." + Array(repeating: "a", count: 99).joined(separator: ".")
        try parse.expect(200, "PUT", "/parse/classes/Deep/\(id)", body: "{\"\(hundred)\":1}")
        try parse.expect(200, "PUT", "/parse/classes/Deep/\(id)", body: #"{"x":1}"#)
        // (`keys`, because the whole object is deeper than this client's JSON parser goes.)
        let got = try parse.expect(200, "GET", "/parse/classes/Deep/\(id)?keys=x")
        XCTAssertEqual(got["x"], 1, "\(got)")
    }

    /// Objects of 64 KiB and more are computed before their write is queued, against a snapshot the write job
    /// checks: concurrent updates of one large object lose nothing, and the answers are the usual ones.
    func testLargeObjectsKeepEveryConcurrentUpdate() throws {
        let big = String(repeating: "x", count: 200_000)
        let id = try parse.create("Large", #"{"s":"\#(big)","n":0,"a":[\#((0..<20_000).map(String.init).joined(separator: ","))]}"#)
        let p = parse!
        let statuses = StatusList()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            statuses.append((try? p.send("PUT", "/parse/classes/Large/\(id)", body: #"{"n":{"__op":"Increment","amount":1}}"#).status) ?? 0)
        }
        let answers = statuses.all
        XCTAssertEqual(answers, Array(repeating: 200, count: 16))
        let added = try parse.expect(200, "PUT", "/parse/classes/Large/\(id)", body: #"{"a":{"__op":"AddUnique","objects":[5,-1]}}"#)
        XCTAssertEqual(added["a"]?.arrayValue?.count, 20_001)
        let got = try parse.expect(200, "GET", "/parse/classes/Large/\(id)?keys=n,s")
        XCTAssertEqual(got["n"], 16)
        XCTAssertEqual(got["s"]?.stringValue?.count, 200_000)
        // A caller the ACL refuses gets 101 whatever its operation would have done.
        let locked = try parse.create("Large", #"{"s":"\#(big)","ACL":{}}"#, headers: ParseServer.headers(master: true))
        XCTAssertEqual(try parse.expect(404, "PUT", "/parse/classes/Large/\(locked)", body: #"{"s":{"__op":"Increment","amount":1}}"#),
                       ["code": 101, "error": "Object not found."])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/Large/\(locked)", headers: ParseServer.headers(master: true),
                                        body: #"{"s":{"__op":"Increment","amount":1}}"#)["code"], 111)
        try parse.expect(200, "DELETE", "/parse/classes/Large/\(locked)", headers: ParseServer.headers(master: true))
        try parse.expect(404, "GET", "/parse/classes/Large/\(locked)", headers: ParseServer.headers(master: true))
    }
}

/// Statuses collected from concurrent requests.
private final class StatusList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ status: Int) { lock.withLock { items.append(status) } }
    var all: [Int] { lock.withLock { items } }
}
