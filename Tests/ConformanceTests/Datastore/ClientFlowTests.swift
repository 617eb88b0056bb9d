import Foundation
import XCTest
import Core

/// DS-187 … DS-195: the raw HTTP sequences the SDKs perform.
final class DatastoreClientFlowTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_AWAIT_TIMEOUT_SECONDS": "5"] }

    func test_DS_187_python_open_default() throws {
        let opened = try ds.call("get_or_create_datastore", [("dsid", "default"), ("locale", "en")])
        guard let h = opened["handle"]?.stringValue, let rev = opened["rev"]?.int64Value else { return XCTFail(opened.text) }
        XCTAssertEqual(rev, 0)   // rev 0: Python skips get_snapshot
        let put = try ds.put(h, rev: 0, DatastoreSnapshotTests.pythonChanges, nonce: "HefDL2JUSBuc9j4beDseNg")
        XCTAssertEqual(put["rev"]?.int64Value, 1)
        let first = try ds.snapshot(h).text
        let reopened = try ds.call("get_or_create_datastore", [("dsid", "default")])
        XCTAssertEqual(reopened["rev"]?.int64Value, 1)
        XCTAssertEqual(try ds.snapshot(h).text, first)
    }

    func test_DS_188_python_transaction_retry() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\", \"t\", \"r\", {\"n\": {\"I\": \"1\"}}]]", nonce: "pyOne0000000000000000a")
        // A second client, still at rev 0, commits and conflicts.
        assertSoft(try ds.put(h, rev: 0, "[[\"I\", \"t\", \"s\", {}]]", nonce: "pyTwo0000000000000000a"), "conflict")
        let caught = try ds.call("get_deltas", [("handle", h), ("rev", "0")], method: "GET")
        let deltas = caught["deltas"]?.arrayValue ?? []
        XCTAssertEqual(deltas.count, 1)
        let next = Int((deltas.last?["rev"]?.int64Value ?? -1) + 1)
        XCTAssertEqual(try ds.put(h, rev: next, "[[\"I\", \"t\", \"s\", {}]]", nonce: "pyTwo0000000000000000b").text, "{\"rev\":2}")
    }

    func test_DS_189_js_startup() throws {
        let first = try ds.call("await", [("X-Dropbox-User-Agent", "dropbox-js-datastore-sdk/1.2.0"),
                                          ("get_deltas", "{\"cursors\":{}}"), ("list_datastores", "{\"token\":\".\"}")],
                                headers: [("X-Dropbox-Request-Id", "53138fcec77733d0")])
        XCTAssertEqual(first["list_datastores"]?["token"]?.stringValue, DSListVector.emptyToken)
        let opened = try ds.call("get_or_create_datastore", [("dsid", "default")])
        XCTAssertEqual(opened["created"], .bool(true))
        let h = opened["handle"]?.stringValue ?? ""
        XCTAssertEqual(try ds.call("get_snapshot", [("handle", h)], method: "GET").text, "{\"rev\":0,\"rows\":[]}")
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\":info\",\"info\",{\"mtime\":{\"T\":\"1795303545729\"}}]]",
                                  nonce: "xYyfa8VsWS").text, "{\"rev\":1}")
        let ack = try ds.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":0}}")])
        XCTAssertEqual(ack.text, "{\"get_deltas\":{\"deltas\":{\"\(h)\":{\"deltas\":[{\"rev\":0,\"changes\":"
                                 + "[[\"I\",\":info\",\"info\",{\"mtime\":{\"T\":\"1795303545729\"}}]],\"nonce\":\"xYyfa8VsWS\"}]}}}}")
    }

    /// Two scripted JS-style clients race at one rev: one wins, the loser learns the winner through await,
    /// rebases and wins at the next rev; both end with equal snapshots.
    func test_DS_190_js_concurrent_rebase() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"tasks\",\"rec1\",{\"n\":{\"I\":\"10\"}}]]", nonce: "init000000")
        try ds.put(h, rev: 1, "[]", nonce: "init000001")
        let server: DatastoreServer = ds
        // Client 2 waits for news from rev 2 while both put at rev 2.
        let watcher = background { try server.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":2}}")]) }
        Thread.sleep(forTimeInterval: 0.3)
        let one = background { try server.put(h, rev: 2, "[[\"U\",\"tasks\",\"rec1\",{\"n\":[\"P\",{\"I\":\"11\"}]}]]", nonce: "cGUVMM_iR4") }
        let two = background { try server.put(h, rev: 2, "[[\"U\",\"tasks\",\"rec1\",{\"n\":[\"P\",{\"I\":\"12\"}]}]]", nonce: "VwsQ83zTJX") }
        let answers = [("cGUVMM_iR4", try one.wait(10)), ("VwsQ83zTJX", try two.wait(10))]
        let winners = answers.filter { $0.1?.text == "{\"rev\":3}" }
        let losers = answers.filter { $0.1?.keys == ["conflict"] }
        XCTAssertEqual(winners.count, 1)
        XCTAssertEqual(losers.count, 1)
        let delivered = try watcher.wait(5)
        let winningNonce = delivered?["get_deltas"]?["deltas"]?[h]?["deltas"]?[0]?["nonce"]?.stringValue
        XCTAssertEqual(winningNonce, winners.first?.0)
        XCTAssertNotEqual(winningNonce, losers.first?.0)   // not ours: the loser rebases
        XCTAssertEqual(try ds.put(h, rev: 3, "[[\"U\",\"tasks\",\"rec1\",{\"n\":[\"P\",{\"I\":\"13\"}]}]]", nonce: "Bzt3KheWl8").text,
                       "{\"rev\":4}")
        XCTAssertEqual(try ds.snapshot(h).text, try ds.snapshot(h).text)
        XCTAssertEqual(try ds.snapshot(h)["rows"]?[0]?["data"]?["n"]?.serialized(), "{\"I\":\"13\"}")
    }

    func test_DS_191_python_delete() throws {
        let h = try ds.create()
        let found = try ds.call("get_datastore", [("dsid", "default")], method: "GET")
        XCTAssertEqual(found["handle"]?.stringValue, h)
        XCTAssertNotNil(try ds.call("delete_datastore", [("handle", h)])["ok"]?.stringValue)
        let again = try ds.call("get_or_create_datastore", [("dsid", "default")])
        XCTAssertEqual(again["rev"]?.int64Value, 0)
        XCTAssertNotEqual(again["handle"]?.stringValue, h)
    }

    func test_DS_192_python_sharing() throws {
        let key = "pythonSharingKey0123456789abcdefghijklmnop"
        let dsid = DatastoreServer.shareableDsid(key)
        let created = try ds.call("create_datastore", [("dsid", dsid), ("key", key)])
        let h = created["handle"]?.stringValue ?? ""
        XCTAssertEqual(try ds.put(h, rev: 0, DatastoreServer.grant("public", 2000), nonce: "py").text, "{\"rev\":1}")
        let seen = try ds.call("get_datastore", [("dsid", dsid)], token: DatastoreServer.tokenB, method: "GET")
        XCTAssertEqual(seen["role"]?.int64Value, 2000)
        XCTAssertEqual(try ds.snapshot(h, token: DatastoreServer.tokenB)["role"]?.int64Value, 2000)
    }

    func test_DS_193_js10_on_r5() throws {
        let r5 = "/r5/datastores"
        let dsid = String(repeating: "j", count: 32)
        let opened = try ds.call("get_or_create_datastore", [("dsid", dsid)], prefix: r5)
        let h = opened["handle"]?.stringValue ?? ""
        let rid = String(repeating: "R", count: 32)
        for rev in 0..<3 {
            let r = try ds.call("put_delta", [("handle", h), ("rev", String(rev)), ("nonce", "sameNonce1"),
                                              ("changes", "[[\"I\",\"t\(rev)\",\"\(rid)\",{}]]")], prefix: r5)
            XCTAssertEqual(r.text, "{\"rev\":\(rev + 1)}")
        }
        let got = try ds.call("get_datastore", [("dsid", dsid)], prefix: r5)
        XCTAssertEqual(got["handle"]?.stringValue, h)
        XCTAssertEqual(got["rev"]?.int64Value, 3)
    }

    func test_DS_194_third_party() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{}]]").text, "{\"rev\":1}")
        XCTAssertEqual(try ds.call("get_snapshot", [("handle", h)], method: "POST")["rev"]?.int64Value, 1)
        let query = "get_deltas=" + DatastoreServer.encode("{\"cursors\":{\"\(h)\":0}}")
        let r = DSResponse(try ds.server.request("GET", "/1/datastores/await?" + query,
                                                 headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)")]))
        XCTAssertEqual(r["get_deltas"]?["deltas"]?[h]?["deltas"]?[0]?["nonce"]?.stringValue, "")
    }

    func test_DS_195_delta_shape_everywhere() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]", nonce: "x")
        try ds.put(h, rev: 1, "[[\"I\",\"t\",\"r\",{}]]")
        let fromGet = try ds.deltas(h, rev: 0)["deltas"]?.arrayValue ?? []
        let fromAwait = try ds.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":0}}")])["get_deltas"]?["deltas"]?[h]?["deltas"]?.arrayValue ?? []
        XCTAssertEqual(fromGet.count, 2)
        for delta in fromGet + fromAwait {
            XCTAssertEqual(delta.objectValue?.keys, ["rev", "changes", "nonce"])
            XCTAssertNotNil(delta["rev"]?.int64Value)
            XCTAssertNotNil(delta["changes"]?.arrayValue)
            XCTAssertNotNil(delta["nonce"]?.stringValue)
        }
    }
}

/// DS-196 … DS-200 (DS-198 is with the await tests): isolation, injection and identifiers.
final class DatastoreIsolationTests: DatastoreTestCase {
    func test_DS_196_foreign_private_handle() throws {
        let h = try ds.create()
        assertSoft(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{}]]", token: DatastoreServer.tokenB), "notfound")
        assertSoft(try ds.snapshot(h, token: DatastoreServer.tokenB), "notfound")
        XCTAssertEqual(try ds.snapshot(h).text, "{\"rev\":0,\"rows\":[]}")
    }

    func test_DS_197_hostile_strings_verbatim() throws {
        let h = try ds.create()
        let changes = "[[\"I\",\"t\",\"r\",{\"sql\":\"'); DROP TABLE ds_record;--\",\"html\":\"<script>alert(1)</script>\"}]]"
        XCTAssertEqual(try ds.put(h, rev: 0, changes).text, "{\"rev\":1}")
        let data = try ds.snapshot(h)["rows"]?[0]?["data"]
        XCTAssertEqual(data?["sql"]?.stringValue, "'); DROP TABLE ds_record;--")
        XCTAssertEqual(data?["html"]?.stringValue, "<script>alert(1)</script>")
        XCTAssertEqual(try ds.put(h, rev: 1, "[[\"I\",\"t\",\"r2\",{}]]").text, "{\"rev\":2}")
    }

    func test_DS_199_handles_shape_and_uniqueness() throws {
        var handles = Set<String>()
        let server: DatastoreServer = ds
        let groups = (0..<8).map { group in
            background { () -> [String] in
                let client = try server.server.connect(timeout: 60)
                defer { client.close() }
                var made: [String] = []
                for i in 0..<1250 {
                    let r = try server.call("get_or_create_datastore", [("dsid", "g\(group)-\(i)")], client: client)
                    if let h = r["handle"]?.stringValue { made.append(h) }
                }
                return made
            }
        }
        for group in groups { handles.formUnion(try group.wait(600) ?? []) }
        XCTAssertEqual(handles.count, 10_000)
        XCTAssertTrue(handles.allSatisfy { $0.range(of: "^[A-Za-z0-9_-]{16}$", options: .regularExpression) != nil })
    }

    func test_DS_200_admin_invalid_user_name() throws {
        let r = DSResponse(try ds.server.request("POST", "/_quartet/admin/datastore/tokens",
                                                 headers: [DatastoreServer.adminAuthorization,
                                                           ("Content-Type", "application/x-www-form-urlencoded")],
                                                 body: "user=bad+name%21"))
        assertError(r, 400)
        let ok = DSResponse(try ds.server.request("POST", "/_quartet/admin/datastore/tokens",
                                                  headers: [DatastoreServer.adminAuthorization,
                                                            ("Content-Type", "application/x-www-form-urlencoded")],
                                                  body: "user=next"))
        XCTAssertEqual(ok["uid"]?.int64Value, 5, "no user was created for the bad name")
    }
}
