import Dispatch
import Foundation
import XCTest
import Core

/// Memory per request (issue 19, item 3), against the real binary: JSON bodies with more values or longer
/// strings than `server.maxJsonValues` / `server.maxJsonStringBytes` are refused in each API's format and
/// nothing is stored; large bodies beyond `server.maxDecodingBytes` wait, then get 503 in the API's format,
/// and the server keeps answering.
final class PlatformDecodingBudgetTests: XCTestCase {
    private var servers: [ParseServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
    }

    private func parse(_ environment: [String: String]) throws -> ParseServer {
        let server = try ParseServer(environment: environment)
        servers.append(server)
        return server
    }

    /// The body of the issue, scaled down to a limit of 1,000 values: 413 as Parse Server answers a body over
    /// its size, nothing stored; a body of exactly 1,000 values is created.
    func testParseBodyOverTheValueLimitIsRefusedWhileParsing() throws {
        let parse = try parse(["QUARTET_SERVER_MAX_JSON_VALUES": "1000", "QUARTET_SERVER_MAX_JSON_STRING_BYTES": "100"])
        let zeros = { (n: Int) in "{\"a\":[" + Array(repeating: "0", count: n).joined(separator: ",") + "]}" }
        // The object, its array, and the array's elements.
        let refused = try parse.send("POST", "/parse/classes/Burst", body: zeros(999))
        XCTAssertEqual(refused.status, 413, refused.text)
        XCTAssertEqual(try JSONParser.parse(refused.body), ["error": "request entity too large"])
        XCTAssertEqual(try parse.masterCount("Burst"), 0)
        _ = try parse.create("Burst", zeros(998))
        let longString = try parse.send("POST", "/parse/classes/Burst", body: "{\"s\":\"\(String(repeating: "x", count: 101))\"}")
        XCTAssertEqual(longString.status, 413, longString.text)
        _ = try parse.create("Burst", "{\"s\":\"\(String(repeating: "x", count: 100))\"}")
        XCTAssertEqual(try parse.masterCount("Burst"), 2)
    }

    /// Twelve 2 MiB bodies at once with a budget that fits one and no wait: the others get Parse's 503, with
    /// Retry-After; nothing of theirs is stored, every admitted one is, and the server answers afterwards.
    func testLargeBodiesBeyondTheBudgetGetParse503AndTheServerKeepsAnswering() throws {
        let parse = try parse(["QUARTET_SERVER_MAX_DECODING_BYTES": "65536", "QUARTET_SERVER_DECODING_WAIT_MILLISECONDS": "0"])
        let body = "{\"s\":\"\(String(repeating: "x", count: 2 << 20))\"}"
        var created = 0
        var refusals: [TestResponse] = []
        // One at a time is what the budget allows; each round sends twelve together, and a round in which the
        // server happened to finish every body before the next arrived is repeated (at most five rounds).
        for _ in 0..<5 where refusals.isEmpty {
            let answers = Answers()
            DispatchQueue.concurrentPerform(iterations: 12) { _ in
                answers.append(Result { try parse.send("POST", "/parse/classes/Big", body: body) })
            }
            for answer in answers.all {
                let response = try answer.get()
                XCTAssertTrue([201, 503].contains(response.status), "\(response.status) \(response.text.prefix(200))")
                if response.status == 201 { created += 1 } else { refusals.append(response) }
            }
        }
        let refused = try XCTUnwrap(refusals.first, "no request waited for the decoding budget")
        XCTAssertEqual(try JSONParser.parse(refused.body), ["code": 1, "error": "Service unavailable."])
        XCTAssertEqual(refused.header("Retry-After"), "1")
        XCTAssertEqual(try parse.masterCount("Big"), created)
        XCTAssertEqual(try parse.server.request("GET", "/health").status, 200)
        _ = try parse.create("Small", "{\"n\":1}")
    }

    /// The same burst with a long wait: every body waits its turn and is created.
    func testLargeBodiesWaitForTheBudgetAndAreServed() throws {
        let parse = try parse(["QUARTET_SERVER_MAX_DECODING_BYTES": "65536", "QUARTET_SERVER_DECODING_WAIT_MILLISECONDS": "60000"])
        let body = "{\"s\":\"\(String(repeating: "y", count: 1 << 20))\"}"
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            answers.append(Result { try parse.send("POST", "/parse/classes/Queued", body: body) })
        }
        XCTAssertEqual(try answers.all.map { try $0.get().status }, Array(repeating: 201, count: 8))
        XCTAssertEqual(try parse.masterCount("Queued"), 8)
    }

    /// Datastore: a `put_delta` whose changes hold more values than the limit is invalid JSON (400).
    func testDatastoreChangesOverTheValueLimitAreRefused() throws {
        let ds = try DatastoreServer(environment: ["QUARTET_SERVER_MAX_JSON_VALUES": "100"])
        defer { ds.server.stop() }
        let handle = try ds.create()
        let values = { (n: Int) in "[[\"I\",\"t\",\"r\",{\"a\":[" + Array(repeating: "1", count: n).joined(separator: ",") + "]}]]" }
        let refused = try ds.put(handle, rev: 0, values(200))
        XCTAssertEqual(refused.status, 400, refused.text)
        XCTAssertEqual(refused["error"]?.stringValue, "Invalid JSON in parameter 'changes'")
        XCTAssertEqual(try ds.put(handle, rev: 0, values(10)).text, "{\"rev\":1}")
    }

    /// Backbeam: `#j` values (JSON text inside url-encoded parameters) count against the same value limit,
    /// all of one request's together: 413 `RequestTooLarge`, nothing stored; within the limit the values are
    /// stored and answered embedded; text that starts with `[` but is not JSON stays text.
    func testBackbeamJSONValuesCountAgainstTheValueLimit() throws {
        let bb = try BackbeamServer(environment: ["QUARTET_SERVER_MAX_JSON_VALUES": "100"])
        defer { bb.stop() }
        let api = bb.client()
        let zeros = { (n: Int) in "[" + Array(repeating: "0", count: n).joined(separator: ",") + "]" }
        // 60 + 1 and 40 + 1 values: each alone fits, together they pass 100.
        let refused = try api.send("POST", "/data/burst", p(("set-a#j", zeros(60)), ("set-b", zeros(40))))
        XCTAssertEqual(refused.status, 413, refused.text)
        XCTAssertEqual(refused.apiStatus, "RequestTooLarge")
        let none = try api.send("GET", "/data/burst")
        XCTAssertEqual(none.json["count"], .int(0), none.text)
        let stored = try api.send("POST", "/data/burst", p(("set-a#j", zeros(50)), ("set-b", zeros(40)),
                                                            ("set-c", "[not json")))
        XCTAssertEqual(stored.status, 201, stored.text)
        XCTAssertEqual(stored.main?["a#j"]?.arrayValue?.count, 50)
        XCTAssertEqual(stored.main?["b#j"]?.arrayValue?.count, 40)
        XCTAssertEqual(stored.main?["c#t"], .string("[not json"))
    }
}

/// Answers collected from concurrent senders.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Result<TestResponse, any Error>] = []
    func append(_ answer: Result<TestResponse, any Error>) { lock.withLock { list.append(answer) } }
    var all: [Result<TestResponse, any Error>] { lock.withLock { list } }
}
