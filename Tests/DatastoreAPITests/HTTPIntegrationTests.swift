import Foundation
import XCTest
import Core
@testable import DatastoreAPI

/// The routes over a real HTTP server in-process: wire format, errors, the racing clients and await wake-ups.
final class HTTPIntegrationTests: XCTestCase {
    private func created(_ s: InProcessServer, _ dsid: String = "default") throws -> String {
        let r = try s.call("get_or_create_datastore", [("dsid", dsid)])
        guard let h = r["handle"]?.stringValue else { throw InProcessError.malformed }
        return h
    }

    func testTransportRules() throws {
        let s = try InProcessServer()
        let list = try s.call("list_datastores", method: "GET")
        XCTAssertEqual(list.status, 200)
        XCTAssertEqual(list.header("Content-Type"), "application/json")
        XCTAssertEqual(list.header("Cache-Control"), "no-store")
        XCTAssertEqual(list.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(list.text, "{\"datastores\":[],\"token\":\"\(ListWire.emptyToken)\"}")
        XCTAssertEqual(try s.call("nope").status, 404)
        XCTAssertEqual(try s.call("list_datastores/").status, 404)
        let put = try s.call("list_datastores", method: "PUT")
        XCTAssertEqual(put.status, 405)
        XCTAssertEqual(put.header("Allow"), "GET, POST, OPTIONS")
        XCTAssertEqual(try s.call("list_datastores", method: "HEAD").status, 405)
        let preflight = try s.call("put_delta", token: nil, method: "OPTIONS")
        XCTAssertEqual(preflight.status, 204)
        let missing = try s.call("list_datastores", token: nil)
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(missing["error"]?.stringValue, "Missing access token")
        XCTAssertNotNil(missing.header("WWW-Authenticate"))
        let json = try s.request("POST", "/1/datastores/list_datastores",
                                 headers: [("Authorization", "Bearer \(InProcessServer.tokenA)"), ("Content-Type", "application/json")],
                                 body: "{}")
        XCTAssertEqual(json.status, 400)
        XCTAssertEqual(json["error"]?.stringValue, "Unsupported Content-Type")
        XCTAssertEqual(try s.request("POST", "/1/datastores/get_or_create_datastore",
                                     headers: [("Authorization", "Bearer \(InProcessServer.tokenA)")], body: "dsid=%ff").status, 400)
        XCTAssertEqual(try s.call("list_datastores", prefix: "/r5/datastores").status, 200)
        // A malformed query string is refused while the request is built, before the group is known, so the
        // server's generic JSON renderer answers it; oversized headers reach the API's renderer.
        let badQuery = try s.request("GET", "/1/datastores/list_datastores?x=%zz")
        XCTAssertEqual(badQuery.status, 400)
        XCTAssertTrue(badQuery.header("Content-Type")?.hasPrefix("application/json") ?? false)
        XCTAssertNotNil(badQuery["error"]?.stringValue)
        let bigHeaders = try s.request("GET", "/1/datastores/list_datastores", headers: [("X-Big", String(repeating: "b", count: 70_000))])
        XCTAssertEqual(bigHeaders.status, 431)
        XCTAssertEqual(bigHeaders.header("Content-Type"), "application/json")
        XCTAssertEqual(bigHeaders["error"]?.stringValue, "Request headers too large")
    }

    func testAdminTokens() throws {
        let s = try InProcessServer()
        XCTAssertEqual(try s.request("POST", "/_quartet/admin/datastore/tokens", body: "user=carol").status, 401)
        let admin = [("Authorization", "Basic YWRtaW46c2VjcmV0"), ("Content-Type", "application/x-www-form-urlencoded")]
        let issued = try s.request("POST", "/_quartet/admin/datastore/tokens", headers: admin, body: "user=carol")
        XCTAssertEqual(issued["uid"]?.int64Value, 3)
        guard let token = issued["token"]?.stringValue else { return XCTFail(issued.text) }
        XCTAssertEqual(try s.call("list_datastores", token: token).status, 200)
        XCTAssertEqual(try s.request("POST", "/_quartet/admin/datastore/tokens/revoke", headers: admin,
                                     body: "token=\(token)").text, "{\"revoked\":true}")
        XCTAssertEqual(try s.call("list_datastores", token: token).status, 401)
        XCTAssertEqual(try s.request("POST", "/_quartet/admin/datastore/tokens", headers: admin, body: "user=bad+name").status, 400)
    }

    /// Too many wrong admin passwords from one address: 429 in the API's `{"error"}` format with `Retry-After`,
    /// for the right password as well, on both admin routes.
    func testAdminRoutesRateLimitWrongPasswords() throws {
        let s = try InProcessServer()
        let wrong = [("Authorization", "Basic YWRtaW46d3Jvbmc="), ("Content-Type", "application/x-www-form-urlencoded")]
        for _ in 0..<10 {
            XCTAssertEqual(try s.request("POST", "/_quartet/admin/datastore/tokens", headers: wrong, body: "user=carol").status, 401)
        }
        let right = [("Authorization", "Basic YWRtaW46c2VjcmV0"), ("Content-Type", "application/x-www-form-urlencoded")]
        for path in ["/tokens", "/tokens/revoke"] {
            let refused = try s.request("POST", "/_quartet/admin/datastore" + path, headers: right, body: "user=carol&token=x")
            XCTAssertEqual(refused.status, 429, refused.text)
            XCTAssertEqual(refused["error"]?.stringValue, "Too many failed admin logins; try again later")
            XCTAssertEqual(refused.header("Content-Type"), "application/json")
            XCTAssertNotNil(refused.header("Retry-After").flatMap { Int($0) }, refused.text)
        }
    }

    /// Two scripted clients put at the same rev: exactly one wins, the loser gets `conflict`, catches up with
    /// get_deltas and wins at the next rev.
    func testRacingClients() throws {
        let s = try InProcessServer()
        let h = try created(s)
        for round in 0..<5 {
            let base = round * 2
            let results = ResultList()
            let group = DispatchGroup()
            for client in ["a", "b"] {
                group.enter()
                DispatchQueue.global().async {
                    let r = try? s.call("put_delta", [("handle", h), ("rev", String(base)), ("nonce", "\(client)\(round)"),
                                                      ("changes", "[[\"I\",\"t\",\"\(client)\(round)\",{}]]")])
                    results.append((client, r))
                    group.leave()
                }
            }
            group.wait()
            let all = results.items
            let winners = all.filter { $0.1?.text == "{\"rev\":\(base + 1)}" }
            let losers = all.filter { $0.1?.json?.objectValue?.keys == ["conflict"] }
            XCTAssertEqual(winners.count, 1)
            XCTAssertEqual(losers.count, 1)
            guard let loser = losers.first?.0 else { continue }
            let caught = try s.call("get_deltas", [("handle", h), ("rev", String(base))])
            XCTAssertEqual(caught["deltas"]?.arrayValue?.count, 1)
            XCTAssertEqual(try s.call("put_delta", [("handle", h), ("rev", String(base + 1)), ("nonce", "\(loser)\(round)r"),
                                                   ("changes", "[[\"I\",\"t\",\"\(loser)\(round)\",{}]]")]).text,
                           "{\"rev\":\(base + 2)}")
        }
        XCTAssertEqual(try s.call("get_snapshot", [("handle", h)])["rows"]?.arrayValue?.count, 10)
    }

    /// An await parked on a cursor is answered by another client's commit, with that delta and its nonce.
    func testAwaitWokenByAnotherClientsCommit() throws {
        let s = try InProcessServer { $0.awaitTimeoutSeconds = 10 }
        let h = try created(s)
        let answer = ResultList()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.append(("await", try? s.call("await", [("get_deltas", "{\"cursors\":{\"\(h)\":0}}")], token: InProcessServer.tokenA)))
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(answer.items.count, 0)
        XCTAssertEqual(try s.call("put_delta", [("handle", h), ("rev", "0"), ("nonce", "other"), ("changes", "[]")]).text,
                       "{\"rev\":1}")
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(answer.items.first?.1?.text,
                       "{\"get_deltas\":{\"deltas\":{\"\(h)\":{\"deltas\":[{\"rev\":0,\"changes\":[],\"nonce\":\"other\"}]}}}}")
    }

    func testAwaitTimeoutAndListWake() throws {
        let s = try InProcessServer { $0.awaitTimeoutSeconds = 1; $0.maxAwaitsPerUser = 2 }
        let started = Date()
        XCTAssertEqual(try s.call("await").text, "{}")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.8)
        let token = try s.call("list_datastores")["token"]?.stringValue ?? ""
        let answer = ResultList()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.append(("list", try? s.call("await", [("list_datastores", "{\"token\":\"\(token)\"}")])))
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)
        let h = try created(s, "fresh")
        XCTAssertEqual(done.wait(timeout: .now() + 3), .success)
        XCTAssertEqual(answer.items.first?.1?["list_datastores"]?["datastores"]?[0]?["handle"]?.stringValue, h)
    }
}

/// Thread-safe collection of results from concurrent clients.
final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(String, InProcessResponse?)] = []
    func append(_ item: (String, InProcessResponse?)) { lock.lock(); list.append(item); lock.unlock() }
    var items: [(String, InProcessResponse?)] { lock.lock(); defer { lock.unlock() }; return list }
}
