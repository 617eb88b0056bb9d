import Foundation
import XCTest
import Core

/// DS-088 … DS-095: get_deltas.
final class DatastoreGetDeltasTests: DatastoreTestCase {
    func test_DS_088_current_rev_is_empty_object() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.deltas(h, rev: 0).text, "{}")
        try ds.put(h, rev: 0, "[]")
        XCTAssertEqual(try ds.deltas(h, rev: 1).text, "{}")
    }

    func test_DS_089_all_deltas_in_order_verbatim() throws {
        let h = try ds.create()
        let changes = ["[[\"I\",\"t\",\"r\",{\"a\":1.50}]]", "[[\"U\",\"t\",\"r\",{\"a\":[\"P\",{\"I\":\"7\"}]}]]", "[[\"D\",\"t\",\"r\"]]"]
        for (i, c) in changes.enumerated() { try ds.put(h, rev: i, c, nonce: "n\(i)") }
        let r = try ds.deltas(h, rev: 0)
        XCTAssertEqual(r.keys, ["deltas"])
        let deltas = r["deltas"]?.arrayValue ?? []
        XCTAssertEqual(deltas.map { $0["rev"]?.int64Value }, [0, 1, 2])
        XCTAssertEqual(deltas.map { $0["changes"]?.serialized() }, changes)
        XCTAssertEqual(deltas.map { $0["nonce"]?.stringValue }, ["n0", "n1", "n2"])
    }

    func test_DS_090_missing_nonce_is_empty_string() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        XCTAssertEqual(try ds.deltas(h, rev: 0).text, "{\"deltas\":[{\"rev\":0,\"changes\":[],\"nonce\":\"\"}]}")
    }

    func test_DS_091_rev_ahead_notfound() throws {
        let h = try ds.create()
        for i in 0..<3 { try ds.put(h, rev: i, "[]") }
        assertSoft(try ds.deltas(h, rev: 5), "notfound")
    }

    func test_DS_092_bad_rev_400() throws {
        let h = try ds.create()
        for bad in ["abc", "-1", "01", "+1", "1.0", "99999999999999999999"] {
            assertError(try ds.call("get_deltas", [("handle", h), ("rev", bad)], method: "GET"), 400)
        }
        assertError(try ds.call("get_deltas", [("handle", h)], method: "GET"), 400)
    }

    func test_DS_093_unknown_or_foreign_handle() throws {
        let h = try ds.create()
        assertSoft(try ds.deltas("AAAAAAAAAAAAAAAA", rev: 0), "notfound")
        assertSoft(try ds.deltas(h, rev: 0, token: DatastoreServer.tokenB), "notfound")
    }

    func test_DS_095_POST_form_same_as_GET() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{}]]", nonce: "x")
        XCTAssertEqual(try ds.call("get_deltas", [("handle", h), ("rev", "0")], method: "POST").text,
                       try ds.deltas(h, rev: 0).text)
    }
}

/// DS-094: the batch cap, with a small cap configured.
final class DatastoreDeltaBatchTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_MAX_DELTAS_PER_RESPONSE": "5"] }

    func test_DS_094_batch_cap_contiguous() throws {
        let h = try ds.create()
        for i in 0..<12 { try ds.put(h, rev: i, "[[\"I\",\"t\",\"r\(i)\",{}]]") }
        var revs: [Int64] = []
        var next = 3
        while next < 12 {
            let batch = try ds.deltas(h, rev: next)["deltas"]?.arrayValue ?? []
            XCTAssertEqual(batch.count, min(5, 12 - next))
            XCTAssertEqual(batch.first?["rev"]?.int64Value, Int64(next))
            revs += batch.compactMap { $0["rev"]?.int64Value }
            next += max(1, batch.count)
        }
        XCTAssertEqual(revs, (3..<12).map(Int64.init))
    }
}

/// DS-096 … DS-106: put_delta success, conflicts, idempotent retries, durability.
final class DatastorePutTests: DatastoreTestCase {
    func test_DS_096_first_put() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r1\",{\"a\":{\"I\":\"1\"}}]]", nonce: "n1").text, "{\"rev\":1}")
    }

    func test_DS_097_stale_put_conflict() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r1\",{\"a\":{\"I\":\"1\"}}]]", nonce: "n1")
        let r = try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r2\",{}]]", nonce: "n2")
        XCTAssertEqual(r.text, "{\"conflict\":\"Datastore revision 0 is not current (current revision is 1)\"}")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(try ds.snapshot(h)["rows"]?.arrayValue?.count, 1)
    }

    func test_DS_098_future_rev_conflict() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        XCTAssertEqual(try ds.put(h, rev: 7, "[]").text,
                       "{\"conflict\":\"Datastore revision 7 is not current (current revision is 1)\"}")
    }

    func test_DS_099_idempotent_replay() throws {
        let h = try ds.create()
        let changes = "[[\"I\",\"t\",\"r1\",{\"a\":{\"I\":\"1\"}}]]"
        try ds.put(h, rev: 0, changes, nonce: "n1")
        XCTAssertEqual(try ds.put(h, rev: 0, changes, nonce: "n1").text, "{\"rev\":1}")
        XCTAssertEqual(try rev(h), 1)
        XCTAssertEqual(try ds.deltas(h, rev: 0)["deltas"]?.arrayValue?.count, 1)
    }

    func test_DS_100_idempotent_retry_of_older_delta() throws {
        let h = try ds.create()
        for i in 0..<5 { try ds.put(h, rev: i, "[]", nonce: "nonce\(i)") }
        XCTAssertEqual(try ds.put(h, rev: 2, "[]", nonce: "nonce2").text, "{\"rev\":3}")
        XCTAssertEqual(try rev(h), 5)
    }

    func test_DS_101_stale_without_nonce_conflicts() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        assertSoft(try ds.put(h, rev: 0, "[]"), "conflict")
        assertSoft(try ds.put(h, rev: 0, "[]", nonce: ""), "conflict")
    }

    func test_DS_102_concurrent_puts_one_wins() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{\"n\":{\"I\":\"10\"}}]]")
        let server: DatastoreServer = ds
        let a = background { try server.put(h, rev: 1, "[[\"U\",\"t\",\"r\",{\"n\":[\"P\",{\"I\":\"11\"}]}]]", nonce: "clientA") }
        let b = background { try server.put(h, rev: 1, "[[\"U\",\"t\",\"r\",{\"n\":[\"P\",{\"I\":\"12\"}]}]]", nonce: "clientB") }
        let results = [try a.wait(20), try b.wait(20)].compactMap { $0 }
        XCTAssertEqual(results.filter { $0.text == "{\"rev\":2}" }.count, 1)
        XCTAssertEqual(results.filter { $0.keys == ["conflict"] }.count, 1)
        XCTAssertEqual(try rev(h), 2)
    }

    func test_DS_103_empty_changes_is_a_delta() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, "[]").text, "{\"rev\":1}")
        XCTAssertEqual(try ds.deltas(h, rev: 0)["deltas"]?[0]?["changes"]?.serialized(), "[]")
    }

    func test_DS_104_python_style_body() throws {
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, DatastoreSnapshotTests.pythonChanges, nonce: "HefDL2JUSBuc9j4beDseNg").text,
                       "{\"rev\":1}")
        let stored = try ds.deltas(h, rev: 0)["deltas"]?[0]?["changes"]
        XCTAssertEqual(stored, try JSONParser.parse(DatastoreSnapshotTests.pythonChanges))
        XCTAssertTrue(stored?.serialized().contains("\"lst\":[\"a\",2]") ?? false)
    }

    func test_DS_105_nonce_length() throws {
        let h = try ds.create()
        assertError(try ds.put(h, rev: 0, "[]", nonce: String(repeating: "n", count: 256)), 400)
        let nonce = String(repeating: "n", count: 255)
        XCTAssertEqual(try ds.put(h, rev: 0, "[]", nonce: nonce).text, "{\"rev\":1}")
        XCTAssertEqual(try ds.deltas(h, rev: 0)["deltas"]?[0]?["nonce"]?.stringValue, nonce)
    }

    func test_DS_106_durable_across_sigkill() throws {
        let dir = ds.server.dataDirectory
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{\"a\":\"kept\"}]]", nonce: "k").text, "{\"rev\":1}")
        kill(ds.server.process.processIdentifier, SIGKILL)
        ds.server.process.waitUntilExit()
        ds.server.stop(removeData: false)
        ds = try DatastoreServer(dataDirectory: dir)
        XCTAssertEqual(try rev(h), 1)
        XCTAssertEqual(try ds.deltas(h, rev: 0)["deltas"]?[0]?["nonce"]?.stringValue, "k")
    }
}
