import Foundation
import Glibc
import XCTest
@testable import HTTP

/// What `HTTPServer.shutdown()` reports: whether every connection finished within the grace.
final class ServerShutdownTests: XCTestCase {
    private func makeServer(grace: Duration, release: DispatchSemaphore) throws -> TestServer {
        try TestServer(configure: { $0.shutdownGrace = grace }) { router in
            let root = router.group("")
            root.get("/now") { _ in .response(.text(.ok, "now")) }
            root.get("/stuck") { _ in
                _ = release.wait(timeout: .now() + 30)
                return .response(.text(.ok, "late"))
            }
        }
    }

    func testADrainWithinTheGraceReportsSuccess() throws {
        let release = DispatchSemaphore(value: 0)
        let server = try makeServer(grace: .seconds(5), release: release)
        let idle = try server.client()
        XCTAssertEqual(try idle.request("GET", "/now").text, "now")
        XCTAssertTrue(server.server.shutdown())
        XCTAssertTrue(idle.waitForClose())
        // A second call has nothing left to stop.
        XCTAssertTrue(server.server.shutdown())
    }

    func testARequestOutlastingTheGraceIsCutOffAndReported() throws {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let server = try makeServer(grace: .milliseconds(300), release: release)
        let client = try server.client()
        try client.send("GET /stuck HTTP/1.1\r\nHost: a\r\n\r\n")
        usleep(100_000)
        XCTAssertFalse(server.server.shutdown())
        // Its client gets no answer: the connection closes.
        XCTAssertThrowsError(try client.readResponse())
        XCTAssertEqual(server.server.openConnections, 0)
    }
}
