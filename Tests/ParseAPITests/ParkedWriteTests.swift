import Foundation
import XCTest
import Core
@testable import HTTP
@testable import ParseAPI

/// Object writes park their request instead of holding a worker thread until the group commit is durable
/// (ParseContext.writeParked); batch items still answer inside their batch.
final class ParkedWriteTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws { server = try ParseTestServer() }
    override func tearDown() { server.stop() }

    /// Receives the response of a parked request the way a connection would.
    final class RecordingSink: ResponseSink, @unchecked Sendable {
        private let lock = NSLock()
        private var response: HTTPResponse?
        private let done = DispatchSemaphore(value: 0)

        func streamChunk(_ bytes: [UInt8], token: StreamToken) {}
        func streamFinished(token: StreamToken) {}
        func parkedCompleted(_ response: HTTPResponse, token: StreamToken) {
            lock.withLock { self.response = response }
            done.signal()
        }

        /// The response, once it arrived (nil after 10 s).
        func wait() -> HTTPResponse? {
            guard done.wait(timeout: .now() + 10) == .success else { return nil }
            return lock.withLock { response }
        }
    }

    private func reply(_ method: HTTPMethod, _ target: String, body: String = "") throws -> Reply {
        var headers = HTTPHeaders()
        for (name, value) in ParseTestServer.headers() { headers.add(name, value) }
        headers.add("Content-Type", "application/json")
        let req = try HTTPRequest(method: method, target: target, headers: headers,
                                  body: body.isEmpty ? .empty : .bytes(Array(body.utf8)))
        return server.service.app.reply(to: req, mount: "/parse")
    }

    /// The answer of a parked reply, as the connection would send it.
    private func parkedAnswer(_ r: Reply, file: StaticString = #filePath, line: UInt = #line) throws -> (Int, JSON) {
        guard case .parked(let parked) = r else {
            XCTFail("expected the request to be parked", file: file, line: line)
            return (0, .null)
        }
        let sink = RecordingSink()
        parked.attach(sink: sink, token: StreamToken(connection: 1, sequence: 1))
        let response = try XCTUnwrap(sink.wait(), file: file, line: line)
        guard case .bytes(let bytes) = response.body else { return (response.status.code, .null) }
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8", file: file, line: line)
        XCTAssertEqual(response.headers["Access-Control-Allow-Origin"], "*", file: file, line: line)
        return (response.status.code, try JSONParser.parse(bytes))
    }

    func testCreateUpdateAndDeleteAnswerOnceCommitted() throws {
        let (created, body) = try parkedAnswer(reply(.post, "/parse/classes/Recipe", body: #"{"name":"Omelette","servings":2}"#))
        XCTAssertEqual(created, 201)
        let id = try XCTUnwrap(body["objectId"]?.stringValue)
        XCTAssertNotNil(body["createdAt"]?.stringValue)
        // Acknowledged means committed: a read right after sees the object.
        let fetched = try server.json("GET", "/parse/classes/Recipe/\(id)", status: 200)
        XCTAssertEqual(fetched["name"], .string("Omelette"))

        let (updated, change) = try parkedAnswer(reply(.put, "/parse/classes/Recipe/\(id)",
                                                        body: #"{"servings":{"__op":"Increment","amount":3}}"#))
        XCTAssertEqual(updated, 200)
        XCTAssertEqual(change["servings"], 5, "the op result is echoed")
        XCTAssertEqual(try server.json("GET", "/parse/classes/Recipe/\(id)", status: 200)["servings"], 5)

        let (deleted, empty) = try parkedAnswer(reply(.delete, "/parse/classes/Recipe/\(id)"))
        XCTAssertEqual(deleted, 200)
        XCTAssertEqual(empty, .object([:]))
        try server.json("GET", "/parse/classes/Recipe/\(id)", status: 404)
    }

    func testAWriteThatFailsInsideItsJobAnswersTheParseError() throws {
        try server.json("POST", "/parse/classes/Recipe", body: #"{"servings":2}"#, status: 201)
        // The type conflict is found against the schema inside the write job, after the request parked.
        let (status, body) = try parkedAnswer(reply(.post, "/parse/classes/Recipe", body: #"{"servings":"two"}"#))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(body["code"], 111)
        let (missing, notFound) = try parkedAnswer(reply(.put, "/parse/classes/Recipe/doesNotExist", body: #"{"a":1}"#))
        XCTAssertEqual(missing, 404)
        XCTAssertEqual(notFound["code"], 101)
    }

    func testBatchItemsAnswerInsideTheirBatch() throws {
        let batch = #"{"requests":[{"method":"POST","path":"/parse/classes/Recipe","body":{"name":"a"}},"#
            + #"{"method":"POST","path":"/parse/classes/Recipe","body":{"name":"b"}}]}"#
        guard case .response(let response) = try reply(.post, "/parse/batch", body: batch),
              case .bytes(let bytes) = response.body else {
            return XCTFail("a batch answers at once")
        }
        XCTAssertEqual(response.status.code, 200)
        let results = try XCTUnwrap(JSONParser.parse(bytes).arrayValue)
        XCTAssertEqual(results.count, 2)
        for item in results { XCTAssertNotNil(item["success"]?["objectId"]?.stringValue) }
    }

    func testParkedWritesAreCountedInMetrics() throws {
        _ = try parkedAnswer(reply(.post, "/parse/classes/Recipe", body: #"{"name":"x"}"#))
        let key = RequestCounters.Key(method: "POST", pattern: "/classes/:className", status: 201)
        XCTAssertNotNil(server.service.app.requestCounters.counter(key), "the parked answer was counted")
    }
}
