import Foundation
import XCTest
import Core

/// Routing, transport, JSONP and CORS: BB-001 … BB-013.
final class BackbeamRoutingTests: BackbeamTestCase {
    func test_BB_001_emptyListWithHeaders() throws {
        let r = try api.send("GET", "/data/place")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.text, "{\"status\":\"Success\",\"objects\":{},\"ids\":[],\"count\":0}")
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(r.header("Cache-Control"), "no-store")
        XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*")
    }

    func test_BB_002_hostWithPortAndUpperCase() throws {
        var c = api!
        // The same answer as BB-001's, byte for byte and with its headers, whichever form the Host takes.
        for host in ["api-dev-\(projectName).example.com:80", "API-DEV-\(projectName.uppercased()).Example.com"] {
            c.host = host
            let r = try c.send("GET", "/data/place")
            XCTAssertEqual(r.status, 200, "\(host): \(r.text)")
            XCTAssertEqual(r.text, "{\"status\":\"Success\",\"objects\":{},\"ids\":[],\"count\":0}", host)
            XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8", host)
            XCTAssertEqual(r.header("Cache-Control"), "no-store", host)
            XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*", host)
        }
    }

    func test_BB_003_projectWithDashAndEnvironmentKeys() throws {
        let pro = bb.client("my-app", "pro", keys: BackbeamServer.appPro)
        XCTAssertEqual(try pro.send("GET", "/data/place").status, 200)
        let wrong = bb.client("my-app", "pro", keys: BackbeamServer.appDev)
        assertError(try wrong.send("GET", "/data/place"), 400, "InvalidApiKey")
        // And the dev keys still work on dev.
        XCTAssertEqual(try bb.client("my-app", "dev", keys: BackbeamServer.appDev).send("GET", "/data/place").status, 200)
    }

    func test_BB_004_pathPrefixSignsThePathWithoutIt() throws {
        var c = api!
        c.usePrefix = true
        let r = try c.send("GET", "/data/place")
        XCTAssertEqual(r.status, 200, r.text)
        assertError(try c.send("GET", "/data/place", signPath: "/backbeam/\(projectName)/dev/data/place"), 400, "InvalidSignature")
    }

    func test_BB_005_defaultProject() throws {
        var c = bb.client()
        c.host = "localhost:8080"
        assertError(try c.send("GET", "/data/place"), 404, "ProjectNotFound")
        let other = try BackbeamServer(environment: ["QUARTET_BACKBEAM_DEFAULT_PROJECT": "demo",
                                                     "QUARTET_BACKBEAM_DEFAULT_ENV": "dev"])
        defer { other.stop() }
        var d = other.client()
        d.host = "localhost:8080"
        let r = try d.send("GET", "/data/place")
        XCTAssertEqual(r.status, 200, r.text)
    }

    func test_BB_006_unknownProjectAndWebHost() throws {
        var c = api!
        c.host = "api-dev-nosuch.example.com"
        assertError(try c.send("GET", "/data/place"), 404, "ProjectNotFound")
        c.host = "web-dev-\(projectName).example.com"
        assertError(try c.send("GET", "/data/place"), 404, "ProjectNotFound")
    }

    func test_BB_007_notFoundAndMethodNotAllowed() throws {
        assertError(try api.send("GET", "/data/place/a/b/c"), 404, "NotFound")
        let r = try api.send("PATCH", "/data/place/x")
        assertError(r, 405, "MethodNotAllowed")
        let allow = r.header("Allow") ?? ""
        for method in ["GET", "PUT", "DELETE"] { XCTAssertTrue(allow.contains(method), allow) }
    }

    func test_BB_008_corsPreflightWithoutSignature() throws {
        let r = try bb.server.request("OPTIONS", "/data/place/x", headers: [
            ("Host", "api-dev-\(projectName).example.com"), ("Origin", "https://app.example"),
            ("Access-Control-Request-Method", "PUT"),
        ])
        XCTAssertEqual(r.status, 204)
        XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(r.header("Access-Control-Allow-Methods"), "GET, HEAD, POST, PUT, DELETE, OPTIONS")
        XCTAssertEqual(r.header("Access-Control-Allow-Headers"),
                       "Content-Type, x-backbeam-sdk, x-backbeam-auth, x-backbeam-old-tokens, x-backbeam-current-token")
        XCTAssertEqual(r.header("Access-Control-Max-Age"), "86400")
        XCTAssertNil(r.header("Access-Control-Allow-Credentials"))
        let asked = try bb.server.request("OPTIONS", "/data/place", headers: [
            ("Host", "api-dev-\(projectName).example.com"), ("Access-Control-Request-Headers", "X-Custom, Content-Type"),
        ])
        XCTAssertEqual(asked.header("Access-Control-Allow-Headers"), "X-Custom, Content-Type")
    }

    func test_BB_009_jsonp() throws {
        let r = try api.send("GET", "/data/place", p(("callback", "cb")))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(r.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(r.text, "/**/cb({\"status\":\"Success\",\"objects\":{},\"ids\":[],\"count\":0});")
    }

    func test_BB_010_jsonpErrorIsStill200() throws {
        let r = try api.send("GET", "/data/place", p(("callback", "cb"))) { params in
            if let i = params.firstIndex(where: { $0.0 == "signature" }) { params[i].1 = ["AAAAAAAAAAAAAAAAAAAAAAAAAAA="] }
        }
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(r.text.hasPrefix("/**/cb({\"status\":\"InvalidSignature\""), r.text)
        XCTAssertTrue(r.text.hasSuffix("});"), r.text)
    }

    func test_BB_011_invalidCallbackIsPlainJSON() throws {
        let r = try api.send("GET", "/data/place", p(("callback", "alert(1)//")))
        assertError(r, 400, "InvalidParameters")
    }

    func test_BB_012_oversizedBodyNothingStored() throws {
        let big = "set-name=" + String(repeating: "a", count: 9 << 20)
        let r = try bb.server.request("POST", "/data/place", headers: [
            ("Host", "api-dev-\(projectName).example.com"), ("Content-Type", "application/x-www-form-urlencoded"),
        ], body: big, timeout: 60)
        assertError(BBResponse(raw: r), 413, "RequestTooLarge")
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 0)
        // The other limits of §2.5, in the same format: request line (414), header section (431), parameter
        // count and value size (400).
        let host = ("Host", "api-dev-\(projectName).example.com")
        let longLine = try bb.server.request("GET", "/data/place?q=" + String(repeating: "a", count: 17 << 10), headers: [host])
        assertError(BBResponse(raw: longLine), 414, "RequestTooLarge")
        let bigHeaders = try bb.server.request("GET", "/data/place", headers: [host] + (0..<20).map {
            ("X-Filler-\($0)", String(repeating: "b", count: 1000))
        })
        assertError(BBResponse(raw: bigHeaders), 431, "RequestTooLarge")
        let many = (0..<2001).map { ("p\($0)", ["1"]) }
        assertError(try api.send("POST", "/data/place", many), 400, "InvalidParameters")
        assertError(try api.send("POST", "/data/place", p(("set-name", String(repeating: "c", count: (1 << 20) + 1)))),
                    400, "InvalidParameters")
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 0)
    }

    func test_BB_013_malformedFramingClosesTheConnection() throws {
        for extra in ["Content-Length: 5\r\nContent-Length: 5\r\n", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n"] {
            let client = try bb.server.connect()
            defer { client.close() }
            try client.send("POST /data/place HTTP/1.1\r\nHost: api-dev-\(projectName).example.com\r\n\(extra)\r\nhello")
            let r = try client.readResponse()
            XCTAssertEqual(r.status, 400)
            XCTAssertTrue(client.waitForClose(), "the connection stays open after \(extra)")
        }
    }
}
