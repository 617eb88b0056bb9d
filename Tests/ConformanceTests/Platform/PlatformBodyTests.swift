import XCTest
import Foundation

/// Request bodies end to end: chunked uploads, 100-continue, 413 at the route limit, SIGTERM draining.
/// They use the admin backup endpoint, the platform's own route that takes a body.
final class PlatformBodyTests: XCTestCase {
    var server: TestServer!
    var auth: (String, String) { PlatformHTTPTests.adminAuthorization }

    override func setUpWithError() throws {
        server = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": PlatformHTTPTests.adminPassword])
    }

    override func tearDown() { server?.stop() }

    func backupBody() -> (String, [UInt8]) {
        let dest = server.dataDirectory.appendingPathComponent("backup-\(UUID().uuidString)").path
        return (dest, Array("{\"destination\":\"\(dest)\"}".utf8))
    }

    func testAdminRequiresCredentials() throws {
        let (_, body) = backupBody()
        let r = try server.request("POST", "/_quartet/admin/backup", body: body)
        XCTAssertEqual(r.status, 401)
        XCTAssertNotNil(r.header("WWW-Authenticate"))
    }

    func testChunkedUpload() throws {
        let (dest, body) = backupBody()
        let client = try server.connect()
        var raw = "POST /_quartet/admin/backup HTTP/1.1\r\nHost: x\r\n\(auth.0): \(auth.1)\r\nTransfer-Encoding: chunked\r\n\r\n"
        let half = body.count / 2
        raw += String(half, radix: 16) + "\r\n" + String(decoding: body[..<half], as: UTF8.self) + "\r\n"
        raw += String(body.count - half, radix: 16) + "\r\n" + String(decoding: body[half...], as: UTF8.self) + "\r\n0\r\n\r\n"
        try client.send(raw)
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest + "/quartet.sqlite3"))
    }

    func testExpect100Continue() throws {
        let (_, body) = backupBody()
        let client = try server.connect()
        try client.send("POST /_quartet/admin/backup HTTP/1.1\r\nHost: x\r\n\(auth.0): \(auth.1)\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse(returnInterim: true)
        XCTAssertEqual(interim.status, 100)
        try client.send(body)
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func testBodyOverRouteLimitIs413() throws {
        let client = try server.connect()
        try client.send("POST /_quartet/admin/backup HTTP/1.1\r\nHost: x\r\n\(auth.0): \(auth.1)\r\nContent-Length: 65537\r\nExpect: 100-continue\r\n\r\n")
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 413)
        let atLimit = [UInt8](repeating: UInt8(ascii: " "), count: 65_536)
        let ok = try server.request("POST", "/_quartet/admin/backup", headers: [auth], body: atLimit)
        XCTAssertEqual(ok.status, 400)   // accepted by the limit, then rejected as not being the expected JSON
    }

    func testSigtermDrainsAnInFlightRequest() throws {
        let (dest, body) = backupBody()
        let client = try server.connect(timeout: 20)
        try client.send("POST /_quartet/admin/backup HTTP/1.1\r\nHost: x\r\n\(auth.0): \(auth.1)\r\nContent-Length: \(body.count)\r\n\r\n")
        try client.send(Array(body.prefix(5)))
        usleep(200_000)
        kill(server.process.processIdentifier, SIGTERM)
        usleep(300_000)
        // New connections are refused while draining...
        XCTAssertThrowsError(try HTTPTestClient(port: server.port).request("GET", "/health"))
        // ...but the request already in flight completes.
        try client.send(Array(body.dropFirst(5)))
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest + "/quartet.sqlite3"))
        server.process.waitUntilExit()
        XCTAssertEqual(server.process.terminationStatus, 0)
    }
}
