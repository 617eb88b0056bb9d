import Foundation
import XCTest
@testable import HTTP

final class ServerBasicsTests: XCTestCase {
    private func makeServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(configure: configure) { router in
            let root = router.group("")
            root.get("/health") { _ in .response(.json(.ok, "{\"status\":\"ok\"}")) }
            root.post("/echo") { request in
                .response(HTTPResponse(status: .ok, body: .bytes(try request.body.readAll(limit: 1 << 30))))
            }
            root.get("/items/:id") { request in .response(.text(.ok, "item \(request.pathParameters["id"] ?? "")")) }
        }
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try makeServer()
        let client = try server.client()
        for index in 0..<5 {
            let response = try client.request("GET", "/items/\(index)")
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.text, "item \(index)")
            XCTAssertNil(response.header("Connection"))
            XCTAssertNotNil(response.header("Date"))
            XCTAssertEqual(response.header("Server"), "Quartet")
            XCTAssertNotNil(response.header("X-Request-Id"))
        }
    }

    func testRoutesRegisteredWhileServingAreFound() throws {
        var registered: Router?
        let server = try TestServer { router in
            registered = router
            router.group("").get("/health") { _ in .response(.json(.ok, "{\"status\":\"ok\"}")) }
        }
        let router = try XCTUnwrap(registered)
        let client = try server.client()
        // The loop serving this connection now holds the compiled table...
        XCTAssertEqual(try client.request("GET", "/health").status, 200)
        XCTAssertEqual(try client.request("GET", "/late").status, 404)
        // ...and fetches it again after a registration.
        let before = router.version
        router.group("").get("/late") { _ in .response(.text(.ok, "late")) }
        XCTAssertGreaterThan(router.version, before)
        XCTAssertEqual(try client.request("GET", "/late").text, "late")
        router.group("/api").get("/x") { _ in .response(.text(.ok, "x")) }
        XCTAssertEqual(try client.request("GET", "/api/x").text, "x")
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try makeServer()
        let client = try server.client()
        try client.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /items/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                        + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nthree")
        XCTAssertEqual(try client.readResponse().text, "item 1")
        XCTAssertEqual(try client.readResponse().text, "item 2")
        XCTAssertEqual(try client.readResponse().text, "three")
    }

    func testChunkedUploadIsReassembled() throws {
        let server = try makeServer()
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "hello world")
    }

    func testRequestIDIsEchoedWhenSaneAndReplacedOtherwise() throws {
        let server = try makeServer()
        let client = try server.client()
        XCTAssertEqual(try client.request("GET", "/health", headers: ["X-Request-Id": "abc-123"]).header("X-Request-Id"),
                       "abc-123")
        let replaced = try client.request("GET", "/health", headers: ["X-Request-Id": "bad id<>"])
        XCTAssertNotEqual(replaced.header("X-Request-Id"), "bad id<>")
        XCTAssertFalse(replaced.header("X-Request-Id")?.isEmpty ?? true)
    }

    func testHTTP10ClosesUnlessKeepAliveRequested() throws {
        let server = try makeServer()
        let client = try server.client()
        try client.send("GET /health HTTP/1.0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())

        let keepAlive = try server.client()
        try keepAlive.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try keepAlive.readResponse().header("Connection"), "keep-alive")
        try keepAlive.send("GET /health HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try keepAlive.readResponse().status, 200)
    }

    func testConnectionCloseIsHonoured() throws {
        let server = try makeServer()
        let client = try server.client()
        let response = try client.request("GET", "/health", headers: ["Connection": "close"])
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
    }

    func testHeadFallsBackToGetWithoutBody() throws {
        let server = try makeServer()
        let client = try server.client()
        let response = try client.request("HEAD", "/health")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), "15")
        // The next response on the same connection parses cleanly, so no body bytes were sent.
        XCTAssertEqual(try client.request("GET", "/items/7").text, "item 7")
    }

    func testUnknownPathIs404AndWrongMethodIs405WithAllow() throws {
        let server = try makeServer()
        let client = try server.client()
        let missing = try client.request("GET", "/nope")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.text, "{\"error\":\"not found\"}")
        let wrong = try client.request("DELETE", "/health")
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Allow"), "GET, HEAD")
    }
}

/// Groups that decode their paths themselves get the raw path, escapes the server's decoder refuses included.
final class ServerRawPathGroupTests: XCTestCase {
    func testAGroupWithoutPathDecodingSeesTheRawPathAndOthersStillRefuseBadEscapes() throws {
        let server = try TestServer { router in
            router.group("/raw", decodesPath: false).on(.get, "*") { request in
                .response(.text(.ok, request.path))
            }
            router.group("/cooked").on(.get, "*") { request in .response(.text(.ok, request.path)) }
        }
        let client = try server.client()
        let raw = try client.request("GET", "/raw/a%00b/%FF?x=1")
        XCTAssertEqual(raw.status, 200)
        XCTAssertEqual(raw.text, "/raw/a%00b/%FF")
        XCTAssertEqual(try server.client().request("GET", "/cooked/a%00b").status, 400)
        XCTAssertEqual(try server.client().request("GET", "/cooked/a%20b").text, "/cooked/a b")
    }
}
