import XCTest
import Core

/// Config, server info, installations, fixed answers (spec §12, §15, §16, §18).
final class ParseMiscTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_READ_ONLY_MASTER_KEY": "readonlykey"] }
    let master = ParseServer.headers(master: true)

    func test_PA_172_empty_config() throws {
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/config"), ["params": [:]])
    }

    func test_PA_173_put_config() throws {
        let body = #"{"params":{"companies":["US","DK","SE"]}}"#
        let denied = try parse.send("PUT", "/parse/config", body: body)
        XCTAssertEqual(denied.status, 403)
        XCTAssertEqual(denied.text, #"{"error":"unauthorized: master key is required"}"#)
        XCTAssertEqual(try parse.expect(200, "PUT", "/parse/config", headers: master, body: body), ["result": true])
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/config")["params"]?["companies"], ["US", "DK", "SE"])
    }

    func test_PA_174_master_only_params() throws {
        try parse.expect(200, "PUT", "/parse/config", headers: master, body: #"{"params":{"companies":["US"]}}"#)
        try parse.expect(200, "PUT", "/parse/config", headers: master, body: #"{"params":{"secret":1},"masterKeyOnly":{"secret":true}}"#)
        let pub = try parse.expect(200, "GET", "/parse/config")
        XCTAssertNil(pub["params"]?["secret"]); XCTAssertNil(pub["masterKeyOnly"]?["secret"])
        let m = try parse.expect(200, "GET", "/parse/config", headers: master)
        XCTAssertEqual(m["params"]?["secret"], 1); XCTAssertEqual(m["masterKeyOnly"]?["secret"], true)
        try parse.expect(200, "PUT", "/parse/config", headers: master, body: #"{"params":{"companies":{"__op":"Delete"}}}"#)
        XCTAssertNil(try parse.expect(200, "GET", "/parse/config")["params"]?["companies"])
    }

    func test_PA_175_config_errors() throws {
        let ro = [("X-Parse-Application-Id", ParseServer.appId), ("X-Parse-Master-Key", "readonlykey")]
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/config", headers: ro, body: #"{"params":{"a":1}}"#),
                       ["code": 119, "error": "read-only masterKey isn't allowed to update the config."])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/config", headers: master, body: #"{"params":5}"#)["code"], 107)
    }

    func test_PA_176_server_info() throws {
        let j = try parse.expect(200, "GET", "/parse/serverInfo", headers: master)
        XCTAssertEqual(j["parseServerVersion"], "7.4.0")
        XCTAssertEqual(j["features"]?["schemas"]?["addClass"], true)
        let r = try parse.send("GET", "/parse/serverInfo")
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.text, #"{"error":"unauthorized: master key is required"}"#)
    }

    func test_PA_177_create_installation() throws {
        let id = try parse.expect(201, "POST", "/parse/installations", body: #"{"deviceType":"ios","installationId":"ABC-1"}"#)["objectId"]?
            .stringValue ?? ""
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/installations/\(id)")["installationId"], "abc-1")
    }

    func test_PA_178_installation_deduplicated() throws {
        let first = try parse.expect(201, "POST", "/parse/installations", body: #"{"deviceType":"ios","installationId":"abc-1"}"#)
        let again = try parse.expect(200, "POST", "/parse/installations", body: #"{"deviceType":"ios","installationId":"abc-1","badge":1}"#)
        XCTAssertEqual(again["objectId"], first["objectId"])
        XCTAssertEqual(again["createdAt"], first["createdAt"])
        XCTAssertNotNil(again["updatedAt"])
        XCTAssertEqual(try parse.masterCount("_Installation"), 1)
    }

    func test_PA_179_installation_required_fields() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/installations", body: #"{"installationId":"x1"}"#),
                       ["code": 135, "error": "deviceType must be specified in this operation"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/installations", body: #"{"deviceType":"ios"}"#),
                       ["code": 135, "error": "at least one ID field (deviceToken, installationId) must be specified in this operation"])
        try parse.expect(201, "POST", "/parse/installations", headers: ParseServer.headers([("X-Parse-Installation-Id", "hdr-1")]),
                         body: #"{"deviceType":"ios"}"#)
    }

    func test_PA_180_installation_find_and_delete_need_master() throws {
        let id = try parse.expect(201, "POST", "/parse/installations", body: #"{"deviceType":"ios","installationId":"i1"}"#)["objectId"]?
            .stringValue ?? ""
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/installations"),
                       ["code": 119, "error": "Clients aren't allowed to perform the find operation on the installation collection."])
        XCTAssertEqual(try parse.expect(400, "DELETE", "/parse/installations/\(id)"),
                       ["code": 119, "error": "Clients aren't allowed to perform the delete operation on the installation collection."])
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/installations", headers: master)["results"]?.arrayValue?.count, 1)
        try parse.expect(200, "DELETE", "/parse/installations/\(id)", headers: master)
    }

    func test_PA_181_installation_immutable_fields() throws {
        let id = try parse.expect(201, "POST", "/parse/installations", body: #"{"deviceType":"ios","installationId":"i1"}"#)["objectId"]?
            .stringValue ?? ""
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/installations/\(id)", body: #"{"installationId":"other"}"#),
                       ["code": 136, "error": "installationId may not be changed in this operation"])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/installations/\(id)", body: #"{"deviceType":"android"}"#),
                       ["code": 136, "error": "deviceType may not be changed in this operation"])
    }

    func test_PA_188_functions() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/functions/hello", body: #"{"name":"x"}"#),
                       ["code": 141, "error": #"Invalid function: "hello""#])
        for name in ["__proto__", "constructor", String(repeating: "f", count: 5000)] {
            XCTAssertEqual(try parse.expect(400, "POST", "/parse/functions/\(name)", body: "{}")["code"], 141)
        }
        try parse.expect(200, "GET", "/parse/health")
    }

    func test_PA_189_jobs_and_hooks() throws {
        let r = try parse.send("POST", "/parse/jobs/x", body: "{}")
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.text, #"{"error":"unauthorized: master key is required"}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/jobs/x", headers: master, body: "{}"), ["code": 141, "error": "Invalid job."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/hooks/functions", headers: master), ["code": 141, "error": "Invalid function."])
    }

    func test_PA_190_push() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/push", headers: master, body: "{}"),
                       ["code": 115, "error": "Push controller is not set"])
        XCTAssertEqual(try parse.send("POST", "/parse/push", body: "{}").status, 403)
    }

    func test_PA_191_events_and_unknown_routes() throws {
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/events/AppOpened", body: "{}"), [:])
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/events/MyEvent", body: #"{"dimensions":{"a":"b"}}"#), [:])
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/logs")["code"], 108)
    }
}

/// Options that change the key rules.
final class ParseClientKeyTests: ParseConformanceCase {
    override var environment: [String: String] {
        ["QUARTET_PARSE_CLIENT_KEY": "ck", "QUARTET_PARSE_REST_API_KEY": "rk", "QUARTET_PARSE_JAVASCRIPT_KEY": "jk"]
    }

    func test_PA_004_client_keys() throws {
        let id = [("X-Parse-Application-Id", ParseServer.appId)]
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: id).text, #"{"error":"unauthorized"}"#)
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: id + [("X-Parse-Client-Key", "ck")]).status, 200)
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: id + [("X-Parse-Client-Key", "bad")]).status, 403)
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: id + [("X-Parse-REST-API-Key", "rk")]).status, 200)
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: id + [("X-Parse-Windows-Key", "x")]).status, 403)
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: id + [("X-Parse-Javascript-Key", "x")]).status, 403)
    }

    func test_PA_005_basic_auth() throws {
        let master = "Basic " + Data("\(ParseServer.appId):\(ParseServer.masterKey)".utf8).base64EncodedString()
        XCTAssertEqual(try parse.send("GET", "/parse/schemas", headers: [("Authorization", master)]).status, 200)
        let js = "Basic " + Data("\(ParseServer.appId):javascript-key=jk".utf8).base64EncodedString()
        XCTAssertEqual(try parse.send("GET", "/parse/classes/R", headers: [("Authorization", js)]).status, 200)
        XCTAssertEqual(try parse.send("GET", "/parse/schemas", headers: [("Authorization", js)]).status, 403)
    }
}

/// Master-key address rules.
final class ParseMasterKeyIPTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_MASTER_KEY_IPS": "10.9.9.9"] }

    func test_PA_006_master_key_ip_allow_list() throws {
        let r = try parse.send("GET", "/parse/schemas", headers: ParseServer.headers(master: true))
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.text, #"{"error":"unauthorized"}"#)
        XCTAssertEqual(try parse.send("GET", "/parse/schemas", headers: ParseServer.headers(master: true, [("X-Forwarded-For", "10.9.9.9")])).status, 403)
        let env = try parse.send("POST", "/parse/classes/R", headers: [("Content-Type", "text/plain")],
                                 body: #"{"_method":"GET","_ApplicationId":"\#(ParseServer.appId)","_MasterKey":"\#(ParseServer.masterKey)"}"#)
        XCTAssertEqual(env.status, 403)
    }
}

/// The same allow-list with the loopback peer trusted as a proxy.
final class ParseTrustProxyTests: ParseConformanceCase {
    override var environment: [String: String] {
        ["QUARTET_PARSE_MASTER_KEY_IPS": "10.9.9.9", "QUARTET_PARSE_TRUST_PROXY": "127.0.0.1"]
    }

    func test_PA_006_trusted_proxy_forwarding() throws {
        XCTAssertEqual(try parse.send("GET", "/parse/schemas", headers: ParseServer.headers(master: true, [("X-Forwarded-For", "10.9.9.9")])).status, 200)
    }
}

/// Custom object ids.
final class ParseCustomIdTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_ALLOW_CUSTOM_OBJECT_ID": "true"] }

    func test_PA_193_custom_object_ids() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"objectId":"role:admin","username":"u","password":"p"}"#),
                       ["code": 119, "error": "Invalid object ID."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/X", body: #"{"objectId":""}"#)["code"], 104)
        XCTAssertEqual(try parse.expect(201, "POST", "/parse/classes/X", body: #"{"objectId":"abc_1"}"#)["objectId"], "abc_1")
    }
}

/// Client class creation switched off.
final class ParseNoClassCreationTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_ALLOW_CLIENT_CLASS_CREATION": "false"] }

    func test_PA_049_client_class_creation_off() throws {
        let msg: JSON = ["code": 119, "error": "This user is not allowed to access non-existent class: Other"]
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/Other", body: #"{"x":1}"#), msg)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Other"), msg)
        try parse.expect(201, "POST", "/parse/classes/Other", headers: ParseServer.headers(master: true), body: #"{"x":1}"#)
    }
}

/// Additional mount paths behave like the main one (spec §1.3).
final class ParseMountAliasTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_ADDITIONAL_MOUNT_PATHS": #"["/1"]"#] }

    func test_additional_mount_path() throws {
        let id = try parse.create("Alias", #"{"a":1}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/1/classes/Alias/\(id)")["a"], 1)
        let r = try parse.send("POST", "/1/classes/Alias", body: "{}")
        XCTAssertEqual(r.status, 201)
        XCTAssertTrue(r.header("Location")?.contains("/1/classes/Alias/") ?? false)
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/batch", body: #"{"requests":[{"method":"POST","path":"/1/classes/Alias","body":{}}]}"#)[0]?["success"] != nil, true)
    }
}
