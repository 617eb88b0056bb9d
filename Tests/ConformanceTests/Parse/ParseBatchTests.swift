import XCTest
import Core

/// `/batch` and idempotency (spec §3.7, §8).
final class ParseBatchTests: ParseConformanceCase {
    func rid(_ id: String) -> [(String, String)] { ParseServer.headers([("X-Parse-Request-Id", id)]) }

    func test_PA_019_duplicate_request_id() throws {
        try parse.expect(201, "POST", "/parse/classes/MyClass", headers: rid("abc-123"), body: #"{"a":1}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/MyClass", headers: rid("abc-123"), body: #"{"a":1}"#),
                       ["code": 159, "error": "Duplicate request"])
        XCTAssertEqual(try parse.masterCount("MyClass"), 1)
    }

    func test_PA_020_ids_are_global_and_reads_never_deduplicated() throws {
        let id = try parse.create("MyClass", #"{"a":1}"#, headers: rid("shared-1"))
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/MyClass/\(id)", headers: rid("shared-1"), body: #"{"a":2}"#)["code"], 159)
        try parse.expect(200, "GET", "/parse/classes/MyClass/\(id)", headers: rid("shared-1"))
        try parse.expect(200, "GET", "/parse/classes/MyClass/\(id)", headers: rid("shared-1"))
        try parse.expect(200, "DELETE", "/parse/classes/MyClass/\(id)", headers: rid("shared-1"))
    }

    func test_PA_021_failed_writes_leave_no_record() throws {
        _ = try parse.create("Typed", #"{"n":1}"#)
        try parse.expect(400, "POST", "/parse/classes/Typed", headers: rid("retry-me"), body: #"{"n":"x"}"#)
        try parse.expect(201, "POST", "/parse/classes/Typed", headers: rid("retry-me"), body: #"{"n":2}"#)
    }

    func test_PA_022_batch_deduplicated() throws {
        let body = #"{"requests":[{"method":"POST","path":"/parse/classes/B","body":{"a":1}}]}"#
        try parse.expect(200, "POST", "/parse/batch", headers: rid("batch-1"), body: body)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/batch", headers: rid("batch-1"), body: body)["code"], 159)
        XCTAssertEqual(try parse.masterCount("B"), 1)
    }

    func test_PA_023_concurrent_duplicates() throws {
        let p = parse!
        let statuses = StatusBox()
        DispatchQueue.concurrentPerform(iterations: 10) { _ in
            let r = try? p.send("POST", "/parse/classes/MyClass", headers: ParseServer.headers([("X-Parse-Request-Id", "same")]),
                                body: #"{"a":1}"#)
            statuses.add(r?.status ?? 0)
        }
        XCTAssertEqual(statuses.values.filter { $0 == 201 }.count, 1)
        XCTAssertEqual(statuses.values.filter { $0 == 400 }.count, 9)
        XCTAssertEqual(try parse.masterCount("MyClass"), 1)
    }

    func test_PA_091_parse_swift_batch() throws {
        let j = try parse.expect(200, "POST", "/parse/batch", body: """
            {"requests":[{"body":{"name":"Pancakes"},"method":"POST","path":"/parse/classes/Recipe"},\
            {"body":{"name":"Soup"},"method":"POST","path":"/parse/classes/Recipe"}],"transaction":false}
            """)
        XCTAssertEqual(j.arrayValue?.count, 2)
        for item in j.arrayValue ?? [] {
            XCTAssertEqual(Set(item["success"]?.objectValue?.keys ?? []), ["objectId", "createdAt"])
        }
        XCTAssertEqual(try parse.masterCount("Recipe"), 2)
    }

    func test_PA_092_mixed_batch() throws {
        let ids = try (0..<20).map { i in try parse.create("Recipe", #"{"name":"Soup","i":\#(i)}"#) }
        var requests: [String] = []
        for i in 0..<50 {
            switch i % 5 {
            case 0, 1: requests.append(#"{"method":"POST","path":"/parse/classes/Recipe","body":{"name":"new"}}"#)
            case 2, 3: requests.append(#"{"method":"PUT","path":"/parse/classes/Recipe/\#(ids[i / 5 * 2 % 20])","body":{"x":\#(i)}}"#)
            default: requests.append(#"{"method":"DELETE","path":"/parse/classes/Recipe/\#(ids[(i / 5) * 2 + 1])"}"#)
            }
        }
        requests[3] = #"{"method":"GET","path":"/parse/classes/Recipe","body":{"where":{"name":"Soup"},"limit":1}}"#
        let j = try parse.expect(200, "POST", "/parse/batch", body: #"{"requests":[\#(requests.joined(separator: ","))]}"#)
        let items = try XCTUnwrap(j.arrayValue)
        XCTAssertEqual(items.count, 50)
        XCTAssertNotNil(items[0]["success"]?["objectId"])
        XCTAssertNotNil(items[2]["success"]?["updatedAt"])
        XCTAssertEqual(items[4]["success"], [:])
        XCTAssertEqual(items[3]["success"]?["results"]?.arrayValue?.count, 1)
    }

    func test_PA_093_requests_shape() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/batch", body: #"{"requests":{}}"#),
                       ["code": 107, "error": "requests must be an array"])
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/batch", body: #"{"requests":[]}"#), [])
    }

    func test_PA_094_unroutable_paths() throws {
        for path in ["/classes/Recipe", "/parse/batch", "/parse/login", "/parse/functions/x", "/parse/classes/R?x=1"] {
            let j = try parse.expect(200, "POST", "/parse/batch", body: #"{"requests":[{"method":"POST","path":"\#(path)","body":{}}]}"#)
            XCTAssertEqual(j[0]?["error"], ["code": 107, "error": .string("cannot route batch path \(path)")])
        }
    }

    func test_PA_095_non_transactional_partial_failure() throws {
        _ = try parse.create("K", #"{"key":"s"}"#)
        let j = try parse.expect(200, "POST", "/parse/batch", body: """
            {"requests":[{"method":"POST","path":"/parse/classes/K","body":{"key":"a"}},\
            {"method":"POST","path":"/parse/classes/K","body":{"key":1}},\
            {"method":"POST","path":"/parse/classes/K","body":{"key":"b"}}],"transaction":false}
            """)
        XCTAssertNotNil(j[0]?["success"]); XCTAssertNotNil(j[2]?["success"])
        XCTAssertEqual(j[1]?["error"]?["code"], 111)
        XCTAssertEqual(try parse.masterCount("K"), 3)
    }

    func test_PA_096_transaction_rolls_back() throws {
        _ = try parse.create("K", #"{"key":"s"}"#)
        let items = (0..<18).map { i in
            #"{"method":"POST","path":"/parse/classes/K","body":{"key":\#(i % 2 == 0 ? "\"value1\"" : "10")}}"#
        }
        let j = try parse.expect(400, "POST", "/parse/batch", body: #"{"requests":[\#(items.joined(separator: ","))],"transaction":true}"#)
        XCTAssertEqual(j["code"], 111)
        XCTAssertEqual(try parse.masterCount("K"), 1)
    }

    func test_PA_097_transaction_success_and_schema_rollback() throws {
        let ok = try parse.expect(200, "POST", "/parse/batch", body: """
            {"requests":[{"method":"POST","path":"/parse/classes/K","body":{"a":1}},\
            {"method":"POST","path":"/parse/classes/K","body":{"a":2}}],"transaction":true}
            """)
        XCTAssertEqual(ok.arrayValue?.count, 2)
        XCTAssertEqual(try parse.masterCount("K"), 2)
        try parse.expect(400, "POST", "/parse/batch", body: """
            {"requests":[{"method":"POST","path":"/parse/classes/K","body":{"brandNewField":1}},\
            {"method":"POST","path":"/parse/classes/K","body":{"a":"wrong"}}],"transaction":true}
            """)
        let schema = try parse.expect(200, "GET", "/parse/schemas/K", headers: ParseServer.headers(master: true))
        XCTAssertNil(schema["fields"]?["brandNewField"])
    }

    func test_PA_098_too_many_requests_in_batch() throws {
        let items = (0..<1001).map { _ in #"{"method":"POST","path":"/parse/classes/Many","body":{}}"# }
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/batch", body: #"{"requests":[\#(items.joined(separator: ","))]}"#)["code"], 107)
        XCTAssertEqual(try parse.masterCount("Many"), 0)
    }

    func test_PA_099_batch_respects_acl_and_installation_rules() throws {
        let (owner, _) = try parse.signUp("owner")
        let (_, other) = try parse.signUp("other")
        let id = try parse.create("Private", #"{"ACL":{"\#(owner)":{"read":true,"write":true}}}"#)
        let j = try parse.expect(200, "POST", "/parse/batch", headers: ParseServer.headers(session: other), body: """
            {"requests":[{"method":"PUT","path":"/parse/classes/Private/\(id)","body":{"x":1}},\
            {"method":"GET","path":"/parse/installations"}]}
            """)
        XCTAssertEqual(j[0]?["error"], ["code": 101, "error": "Object not found."])
        XCTAssertEqual(j[1]?["error"], ["code": 119,
            "error": "Clients aren't allowed to perform the find operation on the installation collection."])
    }

    func test_PA_101_read_only_master_in_batch() throws {
        parse.stop()
        parse = try ParseServer(environment: ["QUARTET_PARSE_READ_ONLY_MASTER_KEY": "readonly"])
        let ro = [("X-Parse-Application-Id", ParseServer.appId), ("X-Parse-Master-Key", "readonly")]
        let body = #"{"requests":[{"method":"POST","path":"/parse/classes/X","body":{}}]}"#
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/batch", headers: ro, body: body)[0]?["error"],
                       ["code": 119, "error": "read-only masterKey isn't allowed to perform the create operation."])
        let tx = #"{"requests":[{"method":"POST","path":"/parse/classes/X","body":{}}],"transaction":true}"#
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/batch", headers: ro, body: tx)["code"], 119)
    }
}

/// Thread-safe collection of statuses from concurrent requests.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func add(_ v: Int) { lock.lock(); list.append(v); lock.unlock() }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return list }
}

/// Request ids expire after `idempotency.ttl` seconds.
final class ParseIdempotencyTTLTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_IDEMPOTENCY": #"{"enabled":true,"ttl":2}"#] }

    func test_PA_021_expired_ids_run_again() throws {
        let h = ParseServer.headers([("X-Parse-Request-Id", "ttl-1")])
        try parse.expect(201, "POST", "/parse/classes/Ttl", headers: h, body: "{}")
        try parse.expect(400, "POST", "/parse/classes/Ttl", headers: h, body: "{}")
        Thread.sleep(forTimeInterval: 3)
        try parse.expect(201, "POST", "/parse/classes/Ttl", headers: h, body: "{}")
    }
}
