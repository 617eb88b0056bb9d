import Foundation
import XCTest
import Core

/// DS-001 … DS-021: routing and transport.
final class DatastoreRoutingTests: DatastoreTestCase {
    func test_DS_001_list_datastores_GET() throws {
        let r = try ds.call("list_datastores", method: "GET")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        XCTAssertNotNil(r["datastores"]?.arrayValue)
        XCTAssertNotNil(r["token"]?.stringValue)
    }

    func test_DS_002_r5_prefix_identical() throws {
        _ = try ds.create()
        let one = try ds.call("list_datastores", method: "GET")
        let r5 = try ds.call("list_datastores", method: "GET", prefix: "/r5/datastores")
        XCTAssertEqual(r5.status, 200)
        XCTAssertEqual(one.text, r5.text)
    }

    func test_DS_003_every_endpoint_via_r5() throws {
        let r5 = "/r5/datastores"
        let created = try ds.call("get_or_create_datastore", [("dsid", "default")], prefix: r5)
        guard let h = created["handle"]?.stringValue else { return XCTFail(created.text) }
        XCTAssertEqual(created["created"], .bool(true))
        XCTAssertEqual(try ds.call("get_datastore", [("dsid", "default")], prefix: r5).text,
                       try ds.call("get_datastore", [("dsid", "default")]).text)
        XCTAssertEqual(try ds.call("put_delta", [("handle", h), ("rev", "0"), ("changes", "[[\"I\",\"t\",\"r\",{}]]")],
                                   prefix: r5).text, "{\"rev\":1}")
        XCTAssertEqual(try ds.call("get_snapshot", [("handle", h)], prefix: r5).text,
                       try ds.call("get_snapshot", [("handle", h)]).text)
        XCTAssertEqual(try ds.call("get_deltas", [("handle", h), ("rev", "0")], prefix: r5).text,
                       try ds.call("get_deltas", [("handle", h), ("rev", "0")]).text)
        XCTAssertEqual(try ds.call("list_datastores", prefix: r5).text, try ds.call("list_datastores").text)
        let awaited = try ds.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":0}}")], prefix: r5)
        XCTAssertEqual(awaited.text, try ds.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":0}}")]).text)
        let key = "r5-key"
        let shared = try ds.call("create_datastore", [("dsid", DatastoreServer.shareableDsid(key)), ("key", key)], prefix: r5)
        XCTAssertEqual(shared["role"]?.int64Value, 3000)
        XCTAssertNotNil(try ds.call("delete_datastore", [("handle", h)], prefix: r5)["ok"]?.stringValue)
    }

    func test_DS_004_list_POST_empty_form() throws {
        _ = try ds.create()
        let post = try ds.call("list_datastores", method: "POST")
        XCTAssertEqual(post.status, 200)
        XCTAssertEqual(post.text, try ds.call("list_datastores", method: "GET").text)
    }

    func test_DS_005_get_or_create_via_GET() throws {
        let r = try ds.call("get_or_create_datastore", [("dsid", "default")], method: "GET")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.keys.sorted(), ["created", "handle", "rev"])
        XCTAssertEqual(r["rev"]?.int64Value, 0)
        XCTAssertEqual(r["created"], .bool(true))
    }

    func test_DS_006_POST_with_query_parameters() throws {
        let h = try ds.create()
        let r = try ds.server.request("POST", "/1/datastores/get_datastore?dsid=default",
                                      headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                ("Content-Type", "application/x-www-form-urlencoded")], body: "")
        XCTAssertEqual(DSResponse(r)["handle"]?.stringValue, h)
    }

    func test_DS_007_body_wins_over_query() throws {
        let h = try ds.create()
        let r = try ds.server.request("POST", "/1/datastores/get_datastore?dsid=nosuch",
                                      headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                ("Content-Type", "application/x-www-form-urlencoded")], body: "dsid=default")
        XCTAssertEqual(DSResponse(r)["handle"]?.stringValue, h)
    }

    func test_DS_008_unknown_parameters_ignored() throws {
        let extra = [("locale", "en"), ("X-Dropbox-User-Agent", "dropbox-js-datastore-sdk/1.2.0"), ("foo", "bar")]
        let created = try ds.call("get_or_create_datastore", [("dsid", "default")] + extra)
        XCTAssertEqual(created["created"], .bool(true))
        let h = created["handle"]?.stringValue ?? ""
        XCTAssertEqual(try ds.call("put_delta", [("handle", h), ("rev", "0"), ("changes", "[]")] + extra).text, "{\"rev\":1}")
        XCTAssertEqual(try ds.call("get_snapshot", [("handle", h)] + extra, method: "GET").text,
                       try ds.call("get_snapshot", [("handle", h)], method: "GET").text)
        XCTAssertEqual(try ds.call("list_datastores", extra).text, try ds.call("list_datastores").text)
    }

    func test_DS_009_client_headers_ignored() throws {
        let headers = [("X-Dropbox-Request-Id", "0123456789abcdef"), ("User-Agent", "OfficialDropboxPythonSDK/2.2.0")]
        let created = try ds.call("get_or_create_datastore", [("dsid", "default")], headers: headers)
        XCTAssertEqual(created["created"], .bool(true))
        let h = created["handle"]?.stringValue ?? ""
        XCTAssertEqual(try ds.call("put_delta", [("handle", h), ("rev", "0"), ("changes", "[]")], headers: headers).text,
                       "{\"rev\":1}")
        XCTAssertEqual(try ds.call("list_datastores", headers: headers).status, 200)
    }

    func test_DS_010_unknown_endpoint_404() throws {
        assertError(try ds.call("no_such_endpoint", method: "GET"), 404)
    }

    func test_DS_011_trailing_slash_404() throws {
        assertError(try ds.call("list_datastores/", method: "GET"), 404)
    }

    func test_DS_012_PUT_405_with_allow() throws {
        let r = try ds.call("list_datastores", method: "PUT")
        assertError(r, 405)
        XCTAssertEqual(r.header("Allow"), "GET, POST, OPTIONS")
    }

    func test_DS_013_OPTIONS_preflight_without_token() throws {
        let r = try ds.call("put_delta", token: nil, method: "OPTIONS")
        XCTAssertEqual(r.status, 204)
        XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*")
        let allowed = r.header("Access-Control-Allow-Headers") ?? ""
        XCTAssertTrue(allowed.contains("Authorization"))
        XCTAssertTrue(allowed.contains("X-Dropbox-Request-Id"))
        XCTAssertEqual(r.header("Access-Control-Allow-Methods"), "GET, POST, OPTIONS")
    }

    func test_DS_014_cors_and_no_store_everywhere() throws {
        let h = try ds.create()
        let responses = [
            try ds.call("list_datastores"), try ds.snapshot(h), try ds.call("get_datastore", [("dsid", "nosuch")]),
            try ds.call("get_datastore"), try ds.call("list_datastores", token: nil), try ds.call("nope"),
            try ds.call("list_datastores", method: "PUT"),
        ]
        for r in responses {
            XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*", r.text)
            XCTAssertEqual(r.header("Cache-Control"), "no-store", r.text)
        }
    }

    func test_DS_015_json_body_refused() throws {
        let h = try ds.create()
        let r = try ds.server.request("POST", "/1/datastores/put_delta",
                                      headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                ("Content-Type", "application/json")],
                                      body: "{\"handle\":\"\(h)\",\"rev\":0,\"changes\":[]}")
        assertError(DSResponse(r), 400, contains: "Unsupported Content-Type")
        XCTAssertEqual(try rev(h), 0)
    }

    func test_DS_016_form_with_charset_accepted() throws {
        let r = try ds.call("get_or_create_datastore", [("dsid", "default")],
                            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")])
        XCTAssertEqual(r["created"], .bool(true))
    }

    func test_DS_017_invalid_percent_escape() throws {
        let r = try ds.server.request("POST", "/1/datastores/get_or_create_datastore",
                                      headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                ("Content-Type", "application/x-www-form-urlencoded")], body: "dsid=%zz")
        assertError(DSResponse(r), 400)
    }

    func test_DS_018_invalid_utf8_value() throws {
        let r = try ds.server.request("POST", "/1/datastores/get_or_create_datastore",
                                      headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                ("Content-Type", "application/x-www-form-urlencoded")], body: "dsid=%ff")
        assertError(DSResponse(r), 400)
    }

    func test_DS_019_body_over_32MiB_413() throws {
        let h = try ds.create()
        let client = try ds.server.connect(timeout: 30)
        defer { client.close() }
        let length = 33 << 20
        let head = "POST /1/datastores/put_delta HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(DatastoreServer.tokenA)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(length)\r\n\r\n"
        try client.send(head)
        // The server may answer before reading the body; either way the answer is 413 and nothing is stored.
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<33 { do { try client.send(body) } catch { break } }
        let r = DSResponse(try client.readResponse(isHead: false))
        assertError(r, 413, contains: "too large")
        XCTAssertEqual(try rev(h), 0)
    }

    func test_DS_020_query_over_64KiB_414() throws {
        let r = try ds.server.request("GET", "/1/datastores/list_datastores?x=" + String(repeating: "a", count: 70 << 10),
                                      headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)")])
        XCTAssertEqual(r.status, 414)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
    }

    func test_DS_021_internal_failure_500_without_details() throws {
        let h = try ds.create()
        // Make the database unusable under the running server: the datastore tables vanish from another
        // connection, so the server's next query fails inside SQLite.
        let db = ds.server.dataDirectory.appendingPathComponent("quartet.sqlite3").path
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["python3", "-c",
                            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('DROP TABLE ds_record'); c.commit()", db]
        try sqlite.run()
        sqlite.waitUntilExit()
        try XCTSkipIf(sqlite.terminationStatus != 0, "python3 with sqlite3 is needed to break the database")
        let r = try ds.snapshot(h)
        assertError(r, 500)
        XCTAssertEqual(r["error"]?.stringValue, "Internal server error")
        XCTAssertFalse(r.text.contains("ds_record"))
    }
}
