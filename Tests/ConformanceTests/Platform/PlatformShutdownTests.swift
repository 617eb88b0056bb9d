import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM with a request that outlasts `server.shutdownGraceSeconds`: the request is cancelled at the end
/// of the grace, the process exits promptly with status 3 (a stop that had to cancel work), and every write
/// acknowledged before the signal is there after a restart on the same data.
final class PlatformShutdownTests: XCTestCase {
    static let grace = 2.0
    var server: TestServer?

    override func tearDown() { server?.stop() }

    private var environment: [String: String] {
        ["QUARTET_PARSE_APP_ID": ParseServer.appId, "QUARTET_PARSE_MASTER_KEY": ParseServer.masterKey,
         "QUARTET_ADMIN_PASSWORD": "conformance-admin-password",
         "QUARTET_SERVER_SHUTDOWN_GRACE_SECONDS": "\(Int(Self.grace))",
         // The query below must not end by its own time limit before the grace does.
         "QUARTET_PARSE_QUERY_TIMEOUT": "600"]
    }

    private func create(_ server: TestServer, _ cls: String, _ body: String) throws -> String {
        let r = try server.request("POST", "/parse/classes/\(cls)",
                                   headers: ParseServer.headers([("Content-Type", "application/json")]), body: body)
        XCTAssertEqual(r.status, 201, r.text)
        return try XCTUnwrap(r.object["objectId"] as? String)
    }

    private static func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    func testSigtermCancelsARequestOutlastingTheGraceAndKeepsAcknowledgedWrites() throws {
        let server = try TestServer(environment: environment)
        self.server = server
        // Rows that a backtracking pattern takes many seconds each to reject.
        for _ in 0..<4 {
            _ = try create(server, "Big", "{\"s\":\"\(String(repeating: "a", count: 200_000))\"}")
        }
        let kept = try create(server, "Kept", "{\"n\":1}")

        let slow = try server.connect(timeout: 30)
        let whereClause = #"{"s":{"$regex":"(.*a){25}c"}}"#
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        try slow.send(HTTPTestClient.requestBytes("GET", "/parse/classes/Big?where=\(whereClause)",
                                                  headers: ParseServer.headers()))
        usleep(500_000)
        XCTAssertFalse(Self.readable(slow.fd), "the query must still run when the signal arrives")

        let signalled = Date()
        kill(server.process.processIdentifier, SIGTERM)
        while server.process.isRunning && Date().timeIntervalSince(signalled) < 30 { usleep(10_000) }
        let elapsed = Date().timeIntervalSince(signalled)
        guard !server.process.isRunning else {
            return XCTFail("still running \(Int(elapsed)) s after SIGTERM with a grace of \(Int(Self.grace)) s")
        }
        // The grace, one second for cancelled work to unwind, and a margin for a loaded machine.
        XCTAssertLessThan(elapsed, Self.grace + 1 + 2, server.output)
        XCTAssertGreaterThanOrEqual(elapsed, Self.grace - 0.1)
        XCTAssertEqual(server.process.terminationStatus, 3, server.output)
        XCTAssertTrue(server.output.contains("shutdown grace"), server.output)
        // The cancelled request got no answer; its connection was closed.
        XCTAssertTrue(slow.waitForClose())

        let dataDirectory = server.dataDirectory
        server.stop(removeData: false)
        let restarted = try TestServer(environment: environment, dataDirectory: dataDirectory)
        self.server = restarted
        let r = try restarted.request("GET", "/parse/classes/Kept/\(kept)", headers: ParseServer.headers())
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.object["n"] as? Int, 1)
        // The restarted server stops cleanly: nothing is in flight.
        XCTAssertEqual(restarted.stop(), 0)
        self.server = nil
    }
}
