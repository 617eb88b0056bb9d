import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Clients that shut down their sending side after their request (`shutdown(SHUT_WR)`): a complete request
/// is answered (the client still reads) and stored once; an incomplete one is neither answered nor stored.
final class PlatformHalfCloseTests: XCTestCase {
    var parse: ParseServer!

    override func setUpWithError() throws { parse = try ParseServer() }
    override func tearDown() { parse?.stop() }

    private func create(_ body: String) -> [UInt8] {
        HTTPTestClient.requestBytes("POST", "/parse/classes/HalfClose",
                                    headers: ParseServer.headers([("Content-Type", "application/json")]),
                                    body: Array(body.utf8))
    }

    func testCreateFollowedByHalfCloseIsAnsweredAndStoredOnce() throws {
        let client = try parse.server.connect()
        try client.send(create("{\"n\":1}"))
        XCTAssertEqual(shutdown(client.fd, Int32(SHUT_WR)), 0)
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 201, r.text)
        let id = try XCTUnwrap(r.object["objectId"] as? String)
        XCTAssertTrue(client.waitForClose())
        try parse.expect(200, "GET", "/parse/classes/HalfClose/\(id)")
        XCTAssertEqual(try parse.masterCount("HalfClose"), 1)
    }

    func testPipelinedCreatesFollowedByHalfCloseAreAllAnswered() throws {
        let client = try parse.server.connect()
        try client.send(create("{\"n\":1}") + create("{\"n\":2}") + create("{\"n\":3}"))
        XCTAssertEqual(shutdown(client.fd, Int32(SHUT_WR)), 0)
        var ids: Set<String> = []
        for _ in 0..<3 {
            let r = try client.readResponse()
            XCTAssertEqual(r.status, 201, r.text)
            if let id = r.object["objectId"] as? String { ids.insert(id) }
        }
        XCTAssertEqual(ids.count, 3)
        XCTAssertTrue(client.waitForClose())
        XCTAssertEqual(try parse.masterCount("HalfClose"), 3)
    }

    func testIncompleteBodyFollowedByHalfCloseStoresNothing() throws {
        let client = try parse.server.connect()
        let whole = create("{\"n\":1}")
        try client.send(Array(whole.dropLast(3)))
        XCTAssertEqual(shutdown(client.fd, Int32(SHUT_WR)), 0)
        XCTAssertThrowsError(try client.readResponse())
        // A complete create on another connection is answered, so the first one had its chance to run.
        XCTAssertNotEqual(try parse.create("Other", "{}"), "")
        XCTAssertEqual(try parse.masterCount("HalfClose"), 0)
    }
}
