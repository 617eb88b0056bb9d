import Foundation
import XCTest
import Core

/// DS-066 … DS-079: create_datastore and delete_datastore.
final class DatastoreCreateDeleteTests: DatastoreTestCase {
    private let vectorKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    private let vectorDsid = ".6oZqdX5MOLq_qBJ8vppAnT4fk6AP8UiP9zX8-Rev_9A"

    func test_DS_066_create_shareable_vector() throws {
        let r = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)])
        XCTAssertEqual(r.keys, ["handle", "rev", "created", "role"])
        XCTAssertEqual(r["rev"]?.int64Value, 0)
        XCTAssertEqual(r["created"], .bool(true))
        XCTAssertEqual(r["role"]?.int64Value, 3000)
    }

    func test_DS_067_retry_by_owner() throws {
        let first = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)])
        let again = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)])
        XCTAssertEqual(again["created"], .bool(false))
        XCTAssertEqual(again["handle"], first["handle"])
        XCTAssertEqual(again["role"]?.int64Value, 3000)
    }

    func test_DS_068_other_owner_in_use() throws {
        _ = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)])
        let r = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)], token: DatastoreServer.tokenB)
        assertError(r, 400)
        XCTAssertEqual(r["error"]?.stringValue, "Datastore ID already in use")
    }

    func test_DS_069_key_must_match_dsid() throws {
        XCTAssertEqual(try ds.call("create_datastore", [("dsid", ".ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"),
                                                        ("key", "abc")])["created"], .bool(true))
        let r = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", "abc")])
        assertError(r, 400)
        XCTAssertEqual(r["error"]?.stringValue, "dsid does not match key")
    }

    func test_DS_070_missing_key_or_private_dsid() throws {
        assertError(try ds.call("create_datastore", [("dsid", vectorDsid)]), 400)
        assertError(try ds.call("create_datastore", [("dsid", vectorDsid), ("key", "")]), 400)
        assertError(try ds.call("create_datastore", [("dsid", "foo"), ("key", "foo")]), 400)
        XCTAssertEqual(try ds.call("list_datastores")["datastores"]?.arrayValue?.count, 0)
    }

    func test_DS_071_recreate_after_delete() throws {
        let first = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)])
        _ = try ds.call("delete_datastore", [("handle", first["handle"]?.stringValue ?? "")])
        let again = try ds.call("create_datastore", [("dsid", vectorDsid), ("key", vectorKey)], token: DatastoreServer.tokenB)
        XCTAssertEqual(again["created"], .bool(true))
        XCTAssertNotEqual(again["handle"], first["handle"])
    }

    func test_DS_072_owner_deletes() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.call("delete_datastore", [("handle", h)]).text, "{\"ok\":\"Deleted datastore with handle: '\(h)'.\"}")
    }

    func test_DS_073_dead_handle_notfound() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        _ = try ds.call("delete_datastore", [("handle", h)])
        assertSoft(try ds.snapshot(h), "notfound")
        assertSoft(try ds.deltas(h, rev: 0), "notfound")
        assertSoft(try ds.put(h, rev: 1, "[]"), "notfound")
    }

    func test_DS_074_unknown_or_missing_handle() throws {
        assertSoft(try ds.call("delete_datastore", [("handle", "AAAAAAAAAAAAAAAA")]), "notfound")
        assertError(try ds.call("delete_datastore"), 400)
    }

    func test_DS_075_editor_cannot_delete() throws {
        let h = try ds.createShared(key: "k75")
        try ds.put(h, rev: 0, DatastoreServer.grant("u2", 2000))
        assertSoft(try ds.call("delete_datastore", [("handle", h)], token: DatastoreServer.tokenB), "access_denied")
        XCTAssertEqual(try rev(h), 1)
    }

    func test_DS_076_viewer_none_and_private() throws {
        let h = try ds.createShared(key: "k76")
        try ds.put(h, rev: 0, DatastoreServer.grant("u2", 1000))
        assertSoft(try ds.call("delete_datastore", [("handle", h)], token: DatastoreServer.tokenB), "access_denied")
        assertSoft(try ds.call("delete_datastore", [("handle", h)], token: DatastoreServer.tokenC), "notfound")
        let p = try ds.create()
        assertSoft(try ds.call("delete_datastore", [("handle", p)], token: DatastoreServer.tokenB), "notfound")
        XCTAssertEqual(try rev(p), 0)
    }

    func test_DS_077_default_may_be_deleted() throws {
        let h = try ds.create("default")
        XCTAssertNotNil(try ds.call("delete_datastore", [("handle", h)])["ok"]?.stringValue)
    }

    func test_DS_078_delete_wakes_cursor_waiter() throws {
        let h = try ds.create()
        let server: DatastoreServer = ds
        let waiting = background { try server.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":0}}")]) }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(waiting.isDone)
        _ = try ds.call("delete_datastore", [("handle", h)])
        let r = try waiting.wait(5)
        XCTAssertNotNil(r?["get_deltas"]?["deltas"]?[h]?["notfound"]?.stringValue, r?.text ?? "no answer")
    }

    func test_DS_079_delete_wakes_list_waiter() throws {
        let h = try ds.create()
        let token = try ds.call("list_datastores")["token"]?.stringValue ?? ""
        let server: DatastoreServer = ds
        let waiting = background { try server.call("await", [("list_datastores", "{\"token\":\"\(token)\"}")]) }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(waiting.isDone)
        _ = try ds.call("delete_datastore", [("handle", h)])
        let r = try waiting.wait(5)
        XCTAssertEqual(r?["list_datastores"]?["datastores"]?.arrayValue?.count, 0, r?.text ?? "no answer")
    }
}
