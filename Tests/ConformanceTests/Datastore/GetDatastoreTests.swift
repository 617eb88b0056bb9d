import Foundation
import XCTest
import Core

/// DS-050 … DS-065: get_datastore and get_or_create_datastore.
final class DatastoreGetTests: DatastoreTestCase {
    func test_DS_050_before_creation_notfound() throws {
        assertSoft(try ds.call("get_datastore", [("dsid", "default")], method: "GET"), "notfound")
    }

    func test_DS_051_after_creation() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        let r = try ds.call("get_datastore", [("dsid", "default")], method: "GET")
        XCTAssertEqual(r.text, "{\"handle\":\"\(h)\",\"rev\":1}")
    }

    func test_DS_052_other_users_private_is_not_visible() throws {
        let h = try ds.create()
        let r = try ds.call("get_datastore", [("dsid", "default")], token: DatastoreServer.tokenB)
        assertSoft(r, "notfound")
        let own = try ds.create(token: DatastoreServer.tokenB)
        XCTAssertNotEqual(own, h)
        XCTAssertEqual(try ds.call("get_datastore", [("dsid", "default")], token: DatastoreServer.tokenB)["handle"]?.stringValue, own)
    }

    func test_DS_053_public_viewer_gets_role() throws {
        let h = try ds.createShared(key: "k53")
        try ds.put(h, rev: 0, DatastoreServer.grant("public", 1000))
        let r = try ds.call("get_datastore", [("dsid", DatastoreServer.shareableDsid("k53"))], token: DatastoreServer.tokenB)
        XCTAssertEqual(r.text, "{\"handle\":\"\(h)\",\"rev\":1,\"role\":1000}")
    }

    func test_DS_054_no_matching_acl_notfound() throws {
        let h = try ds.createShared(key: "k54")
        try ds.put(h, rev: 0, DatastoreServer.grant("u3", 1000))
        assertSoft(try ds.call("get_datastore", [("dsid", DatastoreServer.shareableDsid("k54"))], token: DatastoreServer.tokenB),
                   "notfound")
    }

    func test_DS_055_invalid_dsids_400() throws {
        assertError(try ds.call("get_datastore"), 400)
        for dsid in ["Default", ".", "a.", String(repeating: "a", count: 65)] {
            assertError(try ds.call("get_datastore", [("dsid", dsid)]), 400, contains: "Invalid dsid")
        }
    }

    func test_DS_056_injection_attempt_400() throws {
        let h = try ds.create()
        assertError(try ds.call("get_datastore", [("dsid", "' OR 1=1 --")]), 400, contains: "Invalid dsid: ")
        XCTAssertEqual(try ds.call("get_datastore", [("dsid", "default")])["handle"]?.stringValue, h)
    }

    func test_DS_057_deleted_dsid_notfound() throws {
        let h = try ds.create()
        XCTAssertNotNil(try ds.call("delete_datastore", [("handle", h)])["ok"])
        assertSoft(try ds.call("get_datastore", [("dsid", "default")]), "notfound")
    }

    func test_DS_058_first_get_or_create() throws {
        let r = try ds.call("get_or_create_datastore", [("dsid", "default")])
        XCTAssertEqual(r.keys, ["handle", "rev", "created"])
        XCTAssertEqual(r["rev"]?.int64Value, 0)
        XCTAssertEqual(r["created"], .bool(true))
    }

    func test_DS_059_second_get_or_create() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        XCTAssertEqual(try ds.call("get_or_create_datastore", [("dsid", "default")]).text,
                       "{\"handle\":\"\(h)\",\"rev\":1,\"created\":false}")
    }

    func test_DS_060_shareable_dsid_refused() throws {
        assertError(try ds.call("get_or_create_datastore", [("dsid", ".abc")]), 400)
        XCTAssertEqual(try ds.call("list_datastores")["datastores"]?.arrayValue?.count, 0)
    }

    func test_DS_061_dsid_length() throws {
        XCTAssertEqual(try ds.call("get_or_create_datastore", [("dsid", String(repeating: "a", count: 64))])["created"], .bool(true))
        assertError(try ds.call("get_or_create_datastore", [("dsid", String(repeating: "a", count: 65))]), 400)
    }

    func test_DS_062_dots_inside() throws {
        XCTAssertEqual(try ds.call("get_or_create_datastore", [("dsid", "a_b-c.d")])["created"], .bool(true))
        assertError(try ds.call("get_or_create_datastore", [("dsid", ".a")]), 400)
        XCTAssertEqual(try ds.call("get_or_create_datastore", [("dsid", "a..b")])["created"], .bool(true))
    }

    func test_DS_063_concurrent_get_or_create() throws {
        let server: DatastoreServer = ds
        let pending = (0..<10).map { _ in background { try server.call("get_or_create_datastore", [("dsid", "race")]) } }
        let results = try pending.map { try $0.wait(30) }
        XCTAssertEqual(results.filter { $0?["created"] == .bool(true) }.count, 1)
        XCTAssertEqual(Set(results.compactMap { $0?["handle"]?.stringValue }).count, 1)
        XCTAssertEqual(results.compactMap { $0 }.count, 10)
    }

    func test_DS_064_recreate_after_delete() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        _ = try ds.call("delete_datastore", [("handle", h)])
        let r = try ds.call("get_or_create_datastore", [("dsid", "default")])
        XCTAssertEqual(r["created"], .bool(true))
        XCTAssertEqual(r["rev"]?.int64Value, 0)
        XCTAssertNotEqual(r["handle"]?.stringValue, h)
    }

    func test_DS_065_same_dsid_two_users() throws {
        let a = try ds.create(), b = try ds.create(token: DatastoreServer.tokenB)
        XCTAssertNotEqual(a, b)
        try ds.put(a, rev: 0, "[[\"I\",\"t\",\"r\",{\"x\":\"a\"}]]")
        XCTAssertEqual(try ds.snapshot(b, token: DatastoreServer.tokenB).text, "{\"rev\":0,\"rows\":[]}")
    }
}
