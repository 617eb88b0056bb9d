import Foundation
import Glibc
import XCTest
@testable import HTTP

/// Clients that shut down their sending side (`shutdown(SHUT_WR)`) after their requests: what they asked
/// completely is answered before the connection closes; an incomplete request is never handled.
final class ServerHalfCloseTests: XCTestCase {
    private func makeServer(lot: ParkingLot, handled: LockedBox<Int>) throws -> TestServer {
        try TestServer { router in
            let root = router.group("")
            root.post("/echo") { request in
                handled.update { $0 += 1 }
                return .response(.text(.ok, "got \(request.body.count)"))
            }
            root.get("/now") { _ in .response(.text(.ok, "now")) }
            root.post("/write") { _ in
                handled.update { $0 += 1 }
                let parked = ParkedResponse(timeout: .seconds(30), awaitsCompletionOnShutdown: true) {
                    .text(.ok, "timed out")
                }
                lot.add(parked)
                return .parked(parked)
            }
            root.post("/slow-write") { _ in
                // The client's end of input arrives while the handler still runs.
                usleep(300_000)
                let parked = ParkedResponse(timeout: .seconds(30), awaitsCompletionOnShutdown: true) {
                    .text(.ok, "timed out")
                }
                lot.add(parked)
                return .parked(parked)
            }
            root.get("/wait") { _ in
                let parked = ParkedResponse(timeout: .seconds(30)) { .text(.ok, "timed out") }
                lot.add(parked)
                return .parked(parked)
            }
        }
    }

    private func post(_ path: String, _ body: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    private func halfClose(_ client: RawClient) {
        XCTAssertEqual(shutdown(client.fd, Int32(SHUT_WR)), 0)
    }

    func testRequestFollowedByHalfCloseIsAnsweredThenClosed() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send(post("/echo", "hello"))
        halfClose(client)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "got 5")
        XCTAssertTrue(client.waitForClose())
    }

    func testParkedWriteFollowedByHalfCloseGetsItsAnswer() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send(post("/write", "{}"))
        XCTAssertTrue(eventually { lot.count == 1 })
        halfClose(client)
        usleep(100_000)
        lot.completeAll("committed")
        XCTAssertEqual(try client.readResponse().text, "committed")
        XCTAssertTrue(client.waitForClose())
        XCTAssertEqual(lot.cancelCount, 0)
    }

    func testHalfCloseWhileTheHandlerRunsStillGetsTheParkedAnswer() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send(post("/slow-write", "{}"))
        halfClose(client)
        XCTAssertTrue(eventually { lot.count == 1 })
        lot.completeAll("committed")
        XCTAssertEqual(try client.readResponse().text, "committed")
        XCTAssertTrue(client.waitForClose())
    }

    func testPipelinedRequestsFollowedByHalfCloseAreAllAnswered() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send(post("/echo", "one") + post("/write", "{}") + "GET /now HTTP/1.1\r\nHost: a\r\n\r\n"
                        + post("/echo", "four"))
        halfClose(client)
        XCTAssertEqual(try client.readResponse().text, "got 3")
        XCTAssertTrue(eventually { lot.count == 1 })
        lot.completeAll("committed")
        XCTAssertEqual(try client.readResponse().text, "committed")
        XCTAssertEqual(try client.readResponse().text, "now")
        XCTAssertEqual(try client.readResponse().text, "got 4")
        XCTAssertTrue(client.waitForClose())
        XCTAssertEqual(handled.get(), 3)
    }

    func testIncompleteBodyFollowedByHalfCloseIsNotHandled() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhalf")
        halfClose(client)
        XCTAssertThrowsError(try client.readResponse())
        XCTAssertEqual(handled.get(), 0)
    }

    func testIncompleteRequestBehindACompleteOneIsNotHandled() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send(post("/echo", "one") + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhalf")
        halfClose(client)
        XCTAssertEqual(try client.readResponse().text, "got 3")
        XCTAssertThrowsError(try client.readResponse())
        XCTAssertEqual(handled.get(), 1)
    }

    func testIncompleteHeadBehindACompleteRequestIsNotHandled() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send(post("/echo", "one") + "POST /echo HTTP/1.1\r\nHost: a\r\n")
        halfClose(client)
        XCTAssertEqual(try client.readResponse().text, "got 3")
        XCTAssertThrowsError(try client.readResponse())
        XCTAssertEqual(handled.get(), 1)
    }

    /// A long poll cannot tell a half-close from a client that left, and must notice the latter: it ends.
    func testLongPollEndsWhenItsClientStopsSending() throws {
        let lot = ParkingLot(), handled = LockedBox(0)
        let server = try makeServer(lot: lot, handled: handled)
        let client = try server.client()
        try client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertTrue(eventually { server.server.parkedRequests == 1 })
        halfClose(client)
        XCTAssertTrue(eventually { lot.cancelCount == 1 })
        XCTAssertTrue(client.waitForClose())
    }
}
