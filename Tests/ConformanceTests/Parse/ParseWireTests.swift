import XCTest
import Core

/// Transport, keys and error format (spec §1-§3).
final class ParseWireTests: ParseConformanceCase {
    func test_PA_001_health_any_method_no_credentials() throws {
        for method in ["POST", "GET"] {
            let r = try parse.send(method, "/parse/health", headers: [], body: method == "POST" ? "not json" : nil)
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(r.text, #"{"status":"ok"}"#)
            XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        }
        let head = try parse.server.connect()
        defer { head.close() }
        try head.send("HEAD /parse/health HTTP/1.1\r\nHost: x\r\n\r\n")
        let hr = try head.readResponse(isHead: true)
        XCTAssertEqual(hr.status, 200)
        XCTAssertTrue(hr.body.isEmpty)
    }

    func test_PA_002_options_preflight() throws {
        let r = try parse.send("OPTIONS", "/parse/classes/Recipe", headers: [("Origin", "http://example.com")])
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(r.body.isEmpty)
        XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(r.header("Access-Control-Allow-Methods"), "GET,PUT,POST,DELETE,OPTIONS")
        let allowed = r.header("Access-Control-Allow-Headers") ?? ""
        XCTAssertTrue(allowed.contains("X-Parse-Session-Token") && allowed.contains("X-Parse-Request-Id"))
    }

    func test_PA_003_missing_or_wrong_app_id() throws {
        for headers in [[], [("X-Parse-Application-Id", "wrong")]] {
            let r = try parse.send("GET", "/parse/classes/Recipe", headers: headers)
            XCTAssertEqual(r.status, 403)
            XCTAssertEqual(r.text, #"{"error":"unauthorized"}"#)
            XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*")
        }
    }

    func test_PA_007_wrong_master_key_is_plain_client() throws {
        let id = try parse.create("Secret", #"{"a":1,"ACL":{}}"#, headers: ParseServer.headers(master: true))
        for wrong in ["confMasterKey012345678X", "short"] {
            let j = try parse.expect(404, "GET", "/parse/classes/Secret/\(id)",
                                     headers: [("X-Parse-Application-Id", ParseServer.appId), ("X-Parse-Master-Key", wrong)])
            XCTAssertEqual(j, ["code": 101, "error": "Object not found."])
        }
    }

    func test_PA_008_unknown_session_token() throws {
        let j = try parse.expect(400, "GET", "/parse/classes/Recipe",
                                 headers: ParseServer.headers(session: "r:00000000000000000000000000000000"))
        XCTAssertEqual(j, ["code": 209, "error": "Invalid session token"])
    }

    func test_PA_009_invalid_token_on_login_logout_health() throws {
        _ = try parse.signUp("cook")
        let bad = ParseServer.headers(session: "r:00000000000000000000000000000000")
        try parse.expect(200, "POST", "/parse/login", headers: bad, body: #"{"username":"cook","password":"secret"}"#)
        let out = try parse.expect(400, "POST", "/parse/logout", headers: bad)
        XCTAssertEqual(out["code"], 209)
        try parse.expect(200, "POST", "/parse/health", headers: bad)
    }

    func test_PA_010_method_override() throws {
        let id = try parse.create("Recipe", #"{"name":"Omelette"}"#)
        let j = try parse.expect(200, "POST", "/parse/classes/Recipe",
                                 body: #"{"_method":"GET","limit":100,"skip":0,"where":{"name":"Omelette"}}"#)
        XCTAssertEqual(j["results"]?.arrayValue?.count, 1)
        XCTAssertEqual(try parse.masterCount("Recipe"), 1)
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/classes/Recipe/\(id)", body: #"{"_method":"DELETE"}"#), [:])
        XCTAssertEqual(try parse.masterCount("Recipe"), 0)
    }

    func test_PA_011_js_envelope_create() throws {
        let body = #"{"name":"x","_ApplicationId":"\#(ParseServer.appId)","_JavaScriptKey":"","_ClientVersion":"js5.1.0","_InstallationId":"abc","_noBody":true}"#
        let r = try parse.send("POST", "/parse/classes/Recipe", headers: [("Content-Type", "text/plain")], body: body)
        XCTAssertEqual(r.status, 201, r.text)
        let got = try parse.expect(200, "GET", "/parse/classes/Recipe", headers: ParseServer.headers(master: true))
        let obj = try XCTUnwrap(got["results"]?[0]?.objectValue)
        XCTAssertEqual(Set(obj.keys), ["objectId", "name", "createdAt", "updatedAt"])
    }

    func test_PA_012_envelope_session_token() throws {
        let (uid, token) = try parse.signUp("alice")
        _ = try parse.create("Note", #"{"t":"mine","ACL":{"\#(uid)":{"read":true,"write":true}}}"#)
        let ok = try parse.send("POST", "/parse/classes/Note", headers: [("Content-Type", "text/plain")],
                                body: #"{"_method":"GET","where":{},"_ApplicationId":"\#(ParseServer.appId)","_SessionToken":"\#(token)"}"#)
        XCTAssertEqual((try JSONParser.parse(ok.body))["results"]?.arrayValue?.count, 1)
        let bad = try parse.send("POST", "/parse/classes/Note", headers: [("Content-Type", "text/plain")],
                                 body: #"{"_method":"GET","where":{},"_ApplicationId":"\#(ParseServer.appId)","_SessionToken":{"$regex":"^r"}}"#)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual((try JSONParser.parse(bad.body))["code"], 209)
        let wrong = try parse.send("POST", "/parse/classes/Note", headers: [("Content-Type", "text/plain")],
                                   body: #"{"_method":"GET","_ApplicationId":"nope"}"#)
        XCTAssertEqual(wrong.status, 403)
        XCTAssertEqual(wrong.text, #"{"error":"unauthorized"}"#)
    }

    func test_PA_013_cloud_context_header() throws {
        for bad in ["[1]", "abc"] {
            let j = try parse.expect(400, "GET", "/parse/classes/Recipe", headers: ParseServer.headers([("X-Parse-Cloud-Context", bad)]))
            XCTAssertEqual(j, ["code": 107, "error": "Invalid object for context."])
        }
        try parse.expect(200, "GET", "/parse/classes/Recipe", headers: ParseServer.headers([("X-Parse-Cloud-Context", #"{"a":1}"#)]))
    }

    func test_PA_014_malformed_bodies() throws {
        var deep = ""
        for _ in 0..<101 { deep += "{\"a\":" }
        deep += "1" + String(repeating: "}", count: 101)
        for body in [#"{"a":"#, "[1,2]", #"{"a":1,"a":2}"#, deep] {
            let j = try parse.expect(400, "POST", "/parse/classes/T", body: body)
            XCTAssertEqual(j["code"], 107)
        }
        let r = try parse.server.request("POST", "/parse/classes/T", headers: ParseServer.headers([("Content-Type", "application/json")]),
                                         body: [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D])
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(try parse.masterCount("T"), 0)
        let schemas = try parse.send("GET", "/parse/schemas/T", headers: ParseServer.headers(master: true))
        XCTAssertNotEqual(schemas.status, 200)
        try parse.expect(200, "GET", "/parse/health")
    }

    func test_PA_016_unknown_routes_and_slashes() throws {
        XCTAssertEqual(try parse.expect(404, "PATCH", "/parse/classes/T/x")["code"], 108)
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/nonexistent")["code"], 108)
        _ = try parse.create("Recipe", #"{"name":"a"}"#)
        let plain = try parse.expect(200, "GET", "/parse/classes/Recipe")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Recipe/"), plain)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse//classes/Recipe"), plain)
    }

    func test_PA_017_keep_alive_and_headers() throws {
        let client = try parse.server.connect()
        defer { client.close() }
        for _ in 0..<2 {
            let r = try client.request("GET", "/parse/classes/Recipe", headers: ParseServer.headers())
            XCTAssertEqual(r.status, 200)
            XCTAssertNotNil(r.header("Content-Length"))
            XCTAssertEqual(r.header("Cache-Control"), "no-store")
        }
        let c = try parse.server.connect()
        defer { c.close() }
        try c.send("GET /parse/classes/X?" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        let tooLong = try c.readResponse()
        XCTAssertEqual(tooLong.status, 414)
        XCTAssertEqual((try JSONParser.parse(tooLong.body))["code"], 107)
        let h = try parse.server.connect()
        defer { h.close() }
        try h.send("GET /parse/classes/X HTTP/1.1\r\nHost: x\r\n" + (0..<200).map { "X-H\($0): v\r\n" }.joined() + "\r\n")
        XCTAssertEqual(try h.readResponse().status, 431)
        let smuggle = try parse.server.connect()
        defer { smuggle.close() }
        try smuggle.send("POST /parse/classes/X HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        XCTAssertEqual(try smuggle.readResponse().status, 400)
        XCTAssertTrue(smuggle.waitForClose())
        let ids = (0..<1500).map { "\"id\($0)\"" }.joined(separator: ",")
        let long = try parse.send("GET", "/parse/classes/Recipe?where=" + q(#"{"objectId":{"$in":[\#(ids)]}}"#))
        XCTAssertEqual(long.status, 200)
    }
}
