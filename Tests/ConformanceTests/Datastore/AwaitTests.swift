import Foundation
import XCTest
import Core

/// DS-163 … DS-186 (except those needing a special configuration, below): await.
final class DatastoreAwaitTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_AWAIT_TIMEOUT_SECONDS": "3"] }

    private func poll(list token: String? = nil, cursors: [String: Int]? = nil, as user: String = DatastoreServer.tokenA,
                       method: String = "POST") throws -> DSResponse {
        var params: [(String, String)] = []
        if let token { params.append(("list_datastores", "{\"token\":\"\(token)\"}")) }
        if let cursors {
            let body = cursors.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            params.append(("get_deltas", "{\"cursors\":{\(body)}}"))
        }
        return try ds.call("await", params, token: user, method: method)
    }

    private func awaitInBackground(list token: String? = nil, cursors: [String: Int]? = nil,
                                   as user: String = DatastoreServer.tokenA) -> DSPending<DSResponse> {
        let server: DatastoreServer = ds
        var params: [(String, String)] = []
        if let token { params.append(("list_datastores", "{\"token\":\"\(token)\"}")) }
        if let cursors {
            let body = cursors.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            params.append(("get_deltas", "{\"cursors\":{\(body)}}"))
        }
        let frozen = params
        return background { try server.call("await", frozen, token: user) }
    }

    private func listToken(_ user: String = DatastoreServer.tokenA) throws -> String {
        try ds.call("list_datastores", token: user)["token"]?.stringValue ?? ""
    }

    func test_DS_163_dot_token_answers_at_once() throws {
        let h = try ds.create()
        let started = Date()
        let r = try poll(list: ".")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertEqual(r.keys, ["list_datastores"])
        XCTAssertEqual(r["list_datastores"]?["datastores"]?[0]?["handle"]?.stringValue, h)
        XCTAssertEqual(r["list_datastores"]?["token"]?.stringValue, try listToken())
    }

    func test_DS_164_stale_or_empty_token() throws {
        _ = try ds.create()
        XCTAssertEqual(try poll(list: "")["list_datastores"]?["token"]?.stringValue, try listToken())
        XCTAssertEqual(try poll(list: DSListVector.emptyToken)["list_datastores"]?["token"]?.stringValue, try listToken())
    }

    func test_DS_165_current_token_waits_for_timeout() throws {
        let token = try listToken()
        let started = Date()
        let r = try poll(list: token)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(r.text, "{}")
        XCTAssertGreaterThan(elapsed, 2.5)
        XCTAssertLessThan(elapsed, 6)
    }

    func test_DS_166_no_parameters_waits() throws {
        let started = Date()
        XCTAssertEqual(try poll().text, "{}")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2.5)
    }

    func test_DS_168_cursor_behind_answers_at_once() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]", nonce: "a")
        try ds.put(h, rev: 1, "[[\"I\",\"t\",\"r\",{}]]", nonce: "b")
        let r = try poll(cursors: [h: 0])
        let deltas = r["get_deltas"]?["deltas"]?[h]?["deltas"]?.arrayValue ?? []
        XCTAssertEqual(deltas.map { $0["rev"]?.int64Value }, [0, 1])
        XCTAssertEqual(deltas.map { $0["nonce"]?.stringValue }, ["a", "b"])
    }

    func test_DS_169_woken_by_another_connection() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        let waiting = awaitInBackground(cursors: [h: 1])
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(waiting.isDone)
        let committed = Date()
        try ds.put(h, rev: 1, "[[\"I\",\"t\",\"r\",{\"x\":1.50}]]", nonce: "other-client")
        let r = try waiting.wait(5)
        XCTAssertLessThan(Date().timeIntervalSince(committed), 1)
        XCTAssertEqual(r?.text, "{\"get_deltas\":{\"deltas\":{\"\(h)\":{\"deltas\":[{\"rev\":1,\"changes\":[[\"I\",\"t\",\"r\",{\"x\":1.50}]],\"nonce\":\"other-client\"}]}}}}")
    }

    func test_DS_170_unknown_handle_notfound() throws {
        let r = try poll(cursors: ["AAAAAAAAAAAAAAAA": 0])
        XCTAssertNotNil(r["get_deltas"]?["deltas"]?["AAAAAAAAAAAAAAAA"]?["notfound"]?.stringValue, r.text)
    }

    func test_DS_171_cursor_ahead_notfound() throws {
        let h = try ds.create()
        let r = try poll(cursors: [h: 4])
        XCTAssertNotNil(r["get_deltas"]?["deltas"]?[h]?["notfound"]?.stringValue, r.text)
    }

    func test_DS_172_only_handles_with_news() throws {
        let a = try ds.create("a"), b = try ds.create("b")
        try ds.put(a, rev: 0, "[]")
        let r = try poll(cursors: [a: 0, b: 0])
        XCTAssertEqual(r["get_deltas"]?["deltas"]?.objectValue?.keys, [a])
        XCTAssertFalse(r.text.contains("\"deltas\":[]"))
    }

    func test_DS_173_both_keys() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        let r = try poll(list: ".", cursors: [h: 0])
        XCTAssertEqual(r.keys, ["list_datastores", "get_deltas"])
    }

    func test_DS_174_role_only_for_shareable() throws {
        let s = try ds.createShared(key: "k174"), p = try ds.create()
        try ds.put(s, rev: 0, "[]")
        try ds.put(p, rev: 0, "[]")
        let r = try poll(cursors: [s: 0, p: 0])
        XCTAssertEqual(r["get_deltas"]?["deltas"]?[s]?["role"]?.int64Value, 3000)
        XCTAssertNil(r["get_deltas"]?["deltas"]?[p]?["role"])
    }

    func test_DS_175_waiting_await_blocks_nothing() throws {
        let h = try ds.create()
        let waiting = awaitInBackground(list: try listToken(), cursors: [h: 0])
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        XCTAssertEqual(try ds.call("list_datastores").status, 200)
        XCTAssertEqual(try ds.snapshot(h).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        try ds.put(h, rev: 0, "[]")
        XCTAssertNotNil(try waiting.wait(5))
    }

    func test_DS_178_get_deltas_validation() throws {
        for bad in ["notjson", "{\"cursors\":[]}", "{\"cursors\":{\"H\":-1}}", "{\"cursors\":{\"H\":\"2\"}}",
                    "{\"cursors\":{\"H\":1.5}}", "{}", "[]"] {
            assertError(try ds.call("await", [("get_deltas", bad)]), 400)
        }
    }

    func test_DS_179_list_datastores_validation() throws {
        assertError(try ds.call("await", [("list_datastores", "{\"tok\":\"x\"}")]), 400)
        assertError(try ds.call("await", [("list_datastores", "{\"token\":5}")]), 400)
    }

    func test_DS_180_too_many_cursors() throws {
        let cursors = (0..<1001).map { "\"h\($0)\":0" }.joined(separator: ",")
        assertError(try ds.call("await", [("get_deltas", "{\"cursors\":{\(cursors)}}")]), 400)
    }

    func test_DS_181_GET_with_query() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        let query = "get_deltas=" + DatastoreServer.encode("{\"cursors\":{\"\(h)\":0}}")
        let r = DSResponse(try ds.server.request("GET", "/1/datastores/await?" + query,
                                                 headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)")]))
        XCTAssertEqual(r.text, try poll(cursors: [h: 0]).text)
        let started = Date()
        XCTAssertEqual(DSResponse(try ds.server.request("GET", "/1/datastores/await?get_deltas=%7B%22cursors%22%3A%7B%7D%7D",
                                                        headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)")])).text, "{}")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2.5)
    }

    func test_DS_182_creation_wakes_list_waiter() throws {
        let waiting = awaitInBackground(list: try listToken())
        Thread.sleep(forTimeInterval: 0.5)
        let created = Date()
        let h = try ds.create("fresh")
        let r = try waiting.wait(5)
        XCTAssertLessThan(Date().timeIntervalSince(created), 1)
        XCTAssertEqual(r?["list_datastores"]?["datastores"]?[0]?["handle"]?.stringValue, h)
    }

    func test_DS_183_acl_change_wakes_grantee() throws {
        let h = try ds.createShared(key: "k183")
        let waiting = awaitInBackground(list: try listToken(DatastoreServer.tokenB), as: DatastoreServer.tokenB)
        Thread.sleep(forTimeInterval: 0.5)
        try ds.put(h, rev: 0, DatastoreServer.grant("u2", 1000))
        let r = try waiting.wait(5)
        XCTAssertEqual(r?["list_datastores"]?["datastores"]?[0]?["handle"]?.stringValue, h, r?.text ?? "no answer")
        XCTAssertEqual(r?["list_datastores"]?["datastores"]?[0]?["role"]?.int64Value, 1000)
    }

    func test_DS_184_disconnect_leaves_no_waiter() throws {
        let h = try ds.create()
        for _ in 0..<5 {
            let client = try ds.server.connect()
            let body = DatastoreServer.form([("get_deltas", "{\"cursors\":{\"\(h)\":0}}")])
            try client.send(HTTPTestClient.requestBytes("POST", "/1/datastores/await",
                                                        headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                                  ("Content-Type", "application/x-www-form-urlencoded")],
                                                        body: Array(body.utf8)))
            Thread.sleep(forTimeInterval: 0.1)
            client.close()
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try ds.put(h, rev: 0, "[]").text, "{\"rev\":1}")
        XCTAssertEqual(try ds.put(h, rev: 1, "[]").text, "{\"rev\":2}")
        XCTAssertEqual(try poll(cursors: [h: 0])["get_deltas"]?["deltas"]?[h]?["deltas"]?.arrayValue?.count, 2)
    }

    func test_DS_185_shutdown_answers_waiters() throws {
        let token = try listToken()
        let waiting = awaitInBackground(list: token)
        Thread.sleep(forTimeInterval: 0.5)
        ds.server.stop()
        XCTAssertEqual(try waiting.wait(5)?.text, "{}")
    }

    func test_DS_186_idempotent_retry_does_not_wake() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]", nonce: "n1")
        let waiting = awaitInBackground(cursors: [h: 1])
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(try ds.put(h, rev: 0, "[]", nonce: "n1").text, "{\"rev\":1}")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(waiting.isDone)
        XCTAssertEqual(try waiting.wait(5)?.text, "{}")
    }

    func test_DS_198_parameters_decide_keys() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[]")
        XCTAssertEqual(try poll(cursors: [h: 0]).keys, ["get_deltas"])
        XCTAssertEqual(try poll(list: ".").keys, ["list_datastores"])
    }
}

/// DS-167: a configured time-out above 50 s is clamped to 50 s.
final class DatastoreAwaitClampTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_AWAIT_TIMEOUT_SECONDS": "120"] }

    func test_DS_167_timeout_clamped_to_50s() throws {
        let started = Date()
        let r = try ds.call("await")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(r.text, "{}")
        XCTAssertGreaterThan(elapsed, 45)
        XCTAssertLessThan(elapsed, 58)
    }
}

/// DS-176 and DS-177: many waiters hold no threads; the per-user cap.
final class DatastoreAwaitLoadTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_AWAIT_TIMEOUT_SECONDS": "20"] }

    override func setUpWithError() throws {
        ds = try DatastoreServer(environment: environment, extraUsers: (0..<100).map { "load\($0)" })
    }

    private func threads() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(ds.server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        return Int(line?.split(separator: "\t").last ?? "") ?? -1
    }

    private func park(_ token: String) throws -> HTTPTestClient {
        let client = try ds.server.connect(timeout: 30)
        try client.send(HTTPTestClient.requestBytes("POST", "/1/datastores/await",
                                                    headers: [("Authorization", "Bearer \(token)"),
                                                              ("Content-Type", "application/x-www-form-urlencoded")],
                                                    body: []))
        return client
    }

    func test_DS_176_thousand_waiters_no_thread_each() throws {
        let before = threads()
        var clients: [HTTPTestClient] = []
        for i in 0..<1000 { clients.append(try park(DatastoreServer.token("load\(i % 100)"))) }
        Thread.sleep(forTimeInterval: 1)
        let during = threads()
        XCTAssertLessThan(during - before, 100, "threads grew from \(before) to \(during)")
        let started = Date()
        let h = try ds.create()
        XCTAssertEqual(try ds.put(h, rev: 0, "[]").text, "{\"rev\":1}")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        clients.forEach { $0.close() }
    }

    func test_DS_177_per_user_cap() throws {
        var clients: [HTTPTestClient] = []
        for _ in 0..<64 { clients.append(try park(DatastoreServer.tokenB)) }
        Thread.sleep(forTimeInterval: 1)
        let r = try ds.call("await", token: DatastoreServer.tokenB)
        assertError(r, 503, contains: "Too many concurrent await requests")
        XCTAssertEqual(try ds.call("list_datastores", token: DatastoreServer.tokenC).status, 200)
        clients.forEach { $0.close() }
    }
}

/// Test vectors shared by the await tests.
enum DSListVector {
    static let emptyToken = "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
}
