import Foundation
import Glibc
import XCTest
@testable import HTTP

/// Parked replies waiting for an outside event, registered by handlers and completed by tests.
final class ParkingLot: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [ParkedResponse] = []
    private(set) var cancelled = 0

    func add(_ parked: ParkedResponse) {
        parked.onCancel { [self] in lock.withLock { cancelled += 1 } }
        lock.withLock { waiting.append(parked) }
    }

    var count: Int { lock.withLock { waiting.count } }
    var cancelCount: Int { lock.withLock { cancelled } }

    func completeAll(_ text: String) {
        let all = lock.withLock { () -> [ParkedResponse] in
            let all = waiting
            waiting = []
            return all
        }
        for parked in all { parked.complete(.text(.ok, text)) }
    }
}

final class ServerParkingTests: XCTestCase {
    private func makeServer(lot: ParkingLot, timeout: Duration = .seconds(30),
                            _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(configure: configure) { router in
            let root = router.group("")
            root.get("/wait") { _ in
                let parked = ParkedResponse(timeout: timeout) { .text(.ok, "timed out") }
                lot.add(parked)
                return .parked(parked)
            }
            root.get("/write") { _ in
                let parked = ParkedResponse(timeout: timeout, awaitsCompletionOnShutdown: true) { .text(.ok, "timed out") }
                lot.add(parked)
                return .parked(parked)
            }
            root.get("/now") { _ in .response(.text(.ok, "now")) }
            root.get("/slow") { _ in
                usleep(300_000)
                return .response(.text(.ok, "slow done"))
            }
        }
    }

    /// Starts `server.shutdown()` on a thread of its own; the box turns true once it returned.
    private func shutDownInBackground(_ server: HTTPServer) -> LockedBox<Bool> {
        let stopped = LockedBox(false)
        let thread = Thread {
            server.shutdown()
            stopped.set(true)
        }
        thread.start()
        return stopped
    }

    func testParkedRequestIsCompletedFromAnotherThread() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot)
        let client = try server.client()
        try client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertTrue(eventually { lot.count == 1 })
        XCTAssertTrue(eventually { server.server.parkedRequests == 1 })
        Thread.detachNewThread { lot.completeAll("woken") }
        let response = try client.readResponse()
        XCTAssertEqual(response.text, "woken")
        XCTAssertEqual(try client.request("GET", "/now").text, "now")
    }

    func testPipelinedRequestWaitsBehindAParkedOne() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot)
        let client = try server.client()
        try client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\nGET /now HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertTrue(eventually { lot.count == 1 })
        lot.completeAll("first")
        XCTAssertEqual(try client.readResponse().text, "first")
        XCTAssertEqual(try client.readResponse().text, "now")
    }

    func testParkedRequestTimesOutWithItsTimeoutResponse() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot, timeout: .milliseconds(200))
        let client = try server.client()
        let response = try client.request("GET", "/wait")
        XCTAssertEqual(response.text, "timed out")
        XCTAssertEqual(lot.cancelCount, 0)
    }

    func testClientDisconnectFiresOnCancel() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot)
        do {
            let client = try server.client()
            try client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
            XCTAssertTrue(eventually { server.server.parkedRequests == 1 })
        }
        XCTAssertTrue(eventually { lot.cancelCount == 1 })
        XCTAssertTrue(eventually { server.server.parkedRequests == 0 })
    }

    func testAThousandParkedConnectionsAreAllCompleted() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot)
        var clients: [RawClient] = []
        for _ in 0..<1000 {
            let client = try server.client()
            try client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
            clients.append(client)
        }
        XCTAssertTrue(eventually(20) { lot.count == 1000 })
        XCTAssertTrue(eventually { server.server.parkedRequests == 1000 })
        lot.completeAll("done")
        var answered = 0
        for client in clients where (try? client.readResponse().text) == "done" { answered += 1 }
        XCTAssertEqual(answered, 1000)
    }

    func testShutdownFinishesInFlightAndAnswersParkedRequests() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot) { $0.shutdownGrace = .seconds(5) }
        let parkedClient = try server.client()
        try parkedClient.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertTrue(eventually { lot.count == 1 })
        let slowClient = try server.client()
        try slowClient.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        usleep(50_000)
        let idleClient = try server.client()
        XCTAssertEqual(try idleClient.request("GET", "/now").text, "now")
        let stopped = shutDownInBackground(server.server)
        let slow = try slowClient.readResponse()
        XCTAssertEqual(slow.text, "slow done")
        XCTAssertEqual(slow.header("Connection"), "close")
        XCTAssertEqual(try parkedClient.readResponse().text, "timed out")
        XCTAssertEqual(lot.cancelCount, 1)
        XCTAssertTrue(idleClient.waitForClose())
        XCTAssertTrue(eventually { stopped.get() })
        XCTAssertTrue(server.server.isDraining)
        XCTAssertThrowsError(try RawClient(port: server.port))
    }

    func testShutdownWaitsForAParkedWriteToBeCompleted() throws {
        let lot = ParkingLot()
        let server = try makeServer(lot: lot) { $0.shutdownGrace = .seconds(5) }
        let writer = try server.client()
        try writer.send("GET /write HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertTrue(eventually { lot.count == 1 })
        let stopped = shutDownInBackground(server.server)
        XCTAssertTrue(eventually { server.server.isDraining })
        usleep(100_000)
        XCTAssertFalse(stopped.get(), "the shutdown waits for the parked write")
        XCTAssertEqual(lot.cancelCount, 0)
        lot.completeAll("committed")
        let answer = try writer.readResponse()
        XCTAssertEqual(answer.text, "committed")
        XCTAssertEqual(answer.header("Connection"), "close")
        XCTAssertTrue(eventually { stopped.get() })
    }
}
