import Foundation
import XCTest
import Core

/// Checklist CD-001…CD-008, CD-011…CD-014: server endpoints, routing and transport (spec §1.4, §2, §3.1).
final class CouchServerTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_MAX_REQUEST_SIZE": "4096"] }

    func test_CD_001_welcomeWithAStableUUID() throws {
        var uuid: String?
        for path in ["/couch/", "/couch"] {
            let r = try send("GET", path, auth: .anonymous, raw: true)
            XCTAssertEqual(r.status, 200, r.text)
            let body = json(r)
            XCTAssertEqual(body.objectValue?.keys, ["couchdb", "version", "uuid", "vendor", "features"])
            XCTAssertEqual(body["couchdb"]?.stringValue, "Welcome")
            XCTAssertEqual(body["version"]?.stringValue, "3.3.3")
            XCTAssertEqual(body["vendor"]?["name"]?.stringValue, "Quartet")
            XCTAssertNotNil(body["vendor"]?["version"]?.stringValue)
            XCTAssertEqual(body["features"]?.arrayValue?.count, 0)
            let value = try XCTUnwrap(body["uuid"]?.stringValue)
            XCTAssertNotNil(value.range(of: "^[0-9a-f]{32}$", options: .regularExpression), value)
            if let uuid { XCTAssertEqual(value, uuid) }
            uuid = value
        }
        // The same uuid after a restart on the same data directory.
        server.stop(removeData: false)
        let restarted = try TestServer(environment: ["QUARTET_ADMIN_PASSWORD": Self.password], dataDirectory: server.dataDirectory)
        defer { restarted.stop() }
        let again = try restarted.request("GET", "/couch/")
        XCTAssertEqual(json(again)["uuid"]?.stringValue, uuid)
    }

    func test_CD_002_headersOnEveryResponseAndJSONWhateverAcceptSays() throws {
        for (method, path, auth) in [("GET", "/", Auth.admin), ("GET", "/db", .admin), ("GET", "/nosuch", .admin),
                                     ("GET", "/db", .anonymous)] {
            let r = try send(method, path, headers: [("Accept", "text/html")], auth: auth)
            let serverHeader = try XCTUnwrap(r.header("Server"))
            XCTAssertTrue(serverHeader.hasPrefix("Quartet/"), serverHeader)
            XCTAssertFalse(serverHeader.hasPrefix("CouchDB") || serverHeader.hasPrefix("Couchbase Sync Gateway"))
            XCTAssertEqual(r.header("Content-Type"), "application/json")
            XCTAssertEqual(r.body.last, UInt8(ascii: "\n"))
            XCTAssertEqual(r.header("Cache-Control"), "must-revalidate")
            XCTAssertNotNil(r.header("X-Couch-Request-ID")?.range(of: "^[0-9a-f]{10}$", options: .regularExpression))
            XCTAssertEqual(r.header("X-CouchDB-Body-Time"), "0")
        }
    }

    func test_CD_003_methodNotAllowedOnTheRoot() throws {
        let r = try send("POST", "/", body: "{}")
        assertError(r, 405, "method_not_allowed", "Only GET,HEAD allowed")
        XCTAssertEqual(r.header("Allow"), "GET,HEAD")
        // A method no Couch route registers gets the resource's own list too.
        let odd = try send("FROB", "/db")
        assertError(odd, 405, "method_not_allowed", "Only DELETE,GET,HEAD,POST,PUT allowed")
        XCTAssertEqual(odd.header("Allow"), "DELETE,GET,HEAD,POST,PUT")
    }

    func test_CD_004_up() throws {
        let r = try send("GET", "/_up", auth: .anonymous)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "{\"status\":\"ok\",\"seeds\":{}}\n")
    }

    func test_CD_005_uuids() throws {
        let one = try send("GET", "/_uuids")
        XCTAssertEqual(one.status, 200)
        let ids = try XCTUnwrap(json(one)["uuids"]?.arrayValue?.compactMap(\.stringValue))
        XCTAssertEqual(ids.count, 1)
        XCTAssertNotNil(ids[0].range(of: "^[0-9a-f]{32}$", options: .regularExpression))
        XCTAssertTrue(one.header("Cache-Control")?.contains("no-cache") ?? false)
        XCTAssertEqual(one.header("Pragma"), "no-cache")
        let ten = json(try send("GET", "/_uuids?count=10"))["uuids"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(Set(ten).count, 10)
        XCTAssertEqual(compact(try send("GET", "/_uuids?count=0")), #"{"uuids":[]}"#)
    }

    func test_CD_006_uuidsLimitsAndAuthentication() throws {
        assertError(try send("GET", "/_uuids?count=1001"), 400, "bad_request", "count parameter too large")
        assertError(try send("GET", "/_uuids?count=abc"), 400, "bad_request", "count must be a positive integer")
        assertError(try send("GET", "/_uuids?count=-1"), 400, "bad_request", "count must be a positive integer")
        assertError(try send("GET", "/_uuids", auth: .anonymous), 401, "unauthorized", "Authentication required.")
    }

    func test_CD_007_outOfScopeEndpointsAre501() throws {
        for (method, path) in [("GET", "/_config"), ("GET", "/_stats"), ("POST", "/_replicate"),
                               ("GET", "/_node/_local/_config"), ("POST", "/db/_find"), ("GET", "/db/_design/d/_view/v")] {
            let r = try send(method, path, body: method == "POST" ? "{}" : nil)
            assertError(r, 501, "not_implemented")
        }
    }

    func test_CD_008_otherUnderscoreNamesAreIllegalDatabaseNames() throws {
        assertError(try send("PUT", "/_replicator"), 400, "illegal_database_name")
        assertError(try send("GET", "/_foo"), 400, "illegal_database_name",
                    "Name: '_foo'. Only lowercase characters (a-z), digits (0-9), and any of the characters _, $, (, ), +, -, and / are allowed. Must begin with a letter.")
    }

    func test_CD_011_emptySegmentsAreDroppedAndUnknownParametersIgnored() throws {
        let plain = try send("GET", "/db")
        let odd = try send("GET", "/couch//db//?_nonce=123", raw: true)
        XCTAssertEqual(odd.status, 200, odd.text)
        XCTAssertEqual(odd.text, plain.text)
    }

    func test_CD_012_methodOverrideOnPostOnly() throws {
        let r = try send("POST", "/db/fnord", body: #"{"bob":"connie"}"#, headers: [("X-HTTP-Method-Override", "PUT")])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(try get("/db/fnord")["bob"]?.stringValue, "connie")
        let ignored = try send("GET", "/db/fnord2", headers: [("X-HTTP-Method-Override", "PUT")])
        assertError(ignored, 404, "not_found", "missing")
    }

    func test_CD_013_longTargetsAre414() throws {
        let r = try send("GET", "/db/" + String(repeating: "a", count: 100 * 1024))
        assertError(r, 414, "too_long", "the request uri is too long")
    }

    func test_CD_014_expectContinue() throws {
        let client = try server.connect()
        defer { client.close() }
        let body = Array(#"{"a":1}"#.utf8)
        try client.send("PUT /couch/db/doc HTTP/1.1\r\nHost: x\r\nAuthorization: \(Self.basic("admin", Self.password))\r\n"
                        + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n")
        let interim = try client.readResponse(returnInterim: true)
        XCTAssertEqual(interim.status, 100)
        try client.send(body)
        XCTAssertEqual(try client.readResponse().status, 201)
        // Beyond couch.maxRequestSize (4096 here): 413 at once, without waiting for the body.
        let big = try server.connect()
        defer { big.close() }
        try big.send("PUT /couch/db/big HTTP/1.1\r\nHost: x\r\nAuthorization: \(Self.basic("admin", Self.password))\r\n"
                     + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n")
        let refused = try big.readResponse()
        assertError(refused, 413, "too_large", "the request entity is too large")
        assertError(try send("GET", "/db/big"), 404, "not_found", "missing")
    }
}
