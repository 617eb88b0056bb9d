import XCTest
import Core
#if canImport(Glibc)
import Glibc
#endif

/// Account lockout (spec §9.10).
final class ParseLockoutTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_ACCOUNT_LOCKOUT": #"{"threshold":3,"duration":1}"#] }

    func test_PA_129_account_lockout() throws {
        _ = try parse.signUp("lock")
        for _ in 0..<3 {
            XCTAssertEqual(try parse.expect(404, "POST", "/parse/login", body: #"{"username":"lock","password":"bad"}"#)["code"], 101)
        }
        XCTAssertEqual(try parse.expect(404, "POST", "/parse/login", body: #"{"username":"lock","password":"secret"}"#),
                       ["code": 101, "error": "Your account is locked due to multiple failed login attempts. Please try again after 1 minute(s)"])
        Thread.sleep(forTimeInterval: 61)
        try parse.expect(200, "POST", "/parse/login", body: #"{"username":"lock","password":"secret"}"#)
    }
}

/// Password policy (spec §9.10).
final class ParsePasswordPolicyTests: ParseConformanceCase {
    override var environment: [String: String] {
        ["QUARTET_PARSE_PASSWORD_POLICY": #"{"validatorPattern":"^(?=.*[0-9])(?=.{8,})","doNotAllowUsername":true,"maxPasswordHistory":2}"#]
    }

    func test_PA_130_validator_and_username() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"u1","password":"abc"}"#),
                       ["code": 142, "error": "Password does not meet the Password Policy requirements."])
        try parse.expect(201, "POST", "/parse/users", body: #"{"username":"u2","password":"abcdefg1"}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"alice","password":"alice12345"}"#),
                       ["code": 142, "error": "Password cannot contain your username."])
    }

    func test_PA_131_password_history() throws {
        let j = try parse.expect(201, "POST", "/parse/users", body: #"{"username":"h","password":"first1234"}"#)
        let id = j["objectId"]?.stringValue ?? "", token = j["sessionToken"]?.stringValue
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token),
                                        body: #"{"password":"first1234"}"#),
                       ["code": 142, "error": "New password should not be the same as last 2 passwords."])
    }
}

/// Rate limiting of the credential routes for non-loopback clients (spec §3.8).
final class ParseRateLimitTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_TRUST_PROXY": "127.0.0.1"] }

    func test_PA_024_login_rate_limit() throws {
        let remote = ParseServer.headers([("X-Forwarded-For", "10.1.2.3")])
        for _ in 0..<60 {
            XCTAssertEqual(try parse.send("POST", "/parse/login", headers: remote, body: #"{"username":"x","password":"y"}"#).status, 404)
        }
        let r = try parse.send("POST", "/parse/login", headers: remote, body: #"{"username":"x","password":"y"}"#)
        XCTAssertEqual(r.status, 429)
        XCTAssertEqual(r.text, #"{"code":100,"error":"Too many requests."}"#)
        for _ in 0..<70 {
            XCTAssertNotEqual(try parse.send("POST", "/parse/login", body: #"{"username":"x","password":"y"}"#).status, 429)
        }
    }
}

/// Batch paths behind a public URL (spec §8).
final class ParsePublicURLTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_PUBLIC_SERVER_URL": "http://proxy.example/api/parse"] }

    func test_PA_100_public_url_batch_paths() throws {
        let j = try parse.expect(200, "POST", "/parse/batch", body: """
            {"requests":[{"method":"POST","path":"/api/parse/classes/X","body":{}},{"method":"POST","path":"/parse/classes/X","body":{}}]}
            """)
        XCTAssertNotNil(j[0]?["success"]); XCTAssertNotNil(j[1]?["success"])
        XCTAssertEqual(try parse.masterCount("X"), 2)
    }
}

/// Untrusted header sizes and durability across a hard kill (spec §3.6, §20).
final class ParseDurabilityTests: XCTestCase {
    func test_PA_194_large_client_version_and_kill_9() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quartet-parse-\(UUID().uuidString)")
        let env = ["QUARTET_PARSE_APP_ID": ParseServer.appId, "QUARTET_PARSE_MASTER_KEY": ParseServer.masterKey]
        let first = try TestServer(environment: env, dataDirectory: dir)
        if try first.request("GET", "/parse/health").status != 200 {
            first.stop()
            throw XCTSkip("this quartet binary does not mount the Parse API")
        }
        let version = String(repeating: "v", count: 10_000)
        let start = Date()
        let big = try first.request("GET", "/parse/classes/T", headers: ParseServer.headers([("X-Parse-Client-Version", version)]))
        XCTAssertEqual(big.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        let created = try first.request("POST", "/parse/classes/T", headers: ParseServer.headers([("Content-Type", "application/json")]),
                                        body: #"{"durable":true}"#)
        XCTAssertEqual(created.status, 201)
        let signup = try first.request("POST", "/parse/users", headers: ParseServer.headers([("Content-Type", "application/json")]),
                                       body: #"{"username":"durable","password":"secret"}"#)
        let token = (try JSONParser.parse(signup.body))["sessionToken"]?.stringValue
        let upload = try first.request("POST", "/parse/files/keep.txt", headers: ParseServer.headers(session: token), body: "kept")
        XCTAssertEqual(upload.status, 201)
        let url = (try JSONParser.parse(upload.body))["url"]?.stringValue ?? ""
        let filePath = url.range(of: "/parse/files/").map { String(url[$0.lowerBound...]) } ?? ""
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        first.stop(removeData: false)
        let second = try TestServer(environment: env, dataDirectory: dir)
        defer { second.stop() }
        let list = try second.request("GET", "/parse/classes/T", headers: ParseServer.headers())
        XCTAssertEqual((try JSONParser.parse(list.body))["results"]?.arrayValue?.count, 1)
        XCTAssertEqual(try second.request("GET", filePath).text, "kept")
    }
}

/// A configured rate-limit rule applies to every batch sub-request (spec §3.8).
final class ParseBatchRateLimitTests: ParseConformanceCase {
    override var environment: [String: String] {
        ["QUARTET_PARSE_RATE_LIMIT": #"[{"requestPath":"/classes/*","requestTimeWindow":60000,"requestCount":10,"includeInternalRequests":true}]"#]
    }

    func test_PA_025_batch_counts_each_sub_request() throws {
        let items = (0..<12).map { _ in #"{"method":"POST","path":"/parse/classes/Limited","body":{}}"# }
        let j = try parse.expect(200, "POST", "/parse/batch", body: #"{"requests":[\#(items.joined(separator: ","))]}"#)
        let list = try XCTUnwrap(j.arrayValue)
        XCTAssertEqual(list.filter { $0["success"] != nil }.count, 10)
        XCTAssertEqual(list.filter { $0["error"] == ["code": 100, "error": "Too many requests."] }.count, 2)
    }
}

/// 3,000 objects of class `Big`, each with a 4,000-character string `t`: enough rows that scanning them
/// outlasts the small query budgets of the PA-083 tests.
private func seedBigClass(_ parse: ParseServer) throws {
    let text = String(repeating: "ab", count: 2000)
    let item = #"{"method":"POST","path":"/parse/classes/Big","body":{"t":"\#(text)"}}"#
    for _ in 0..<3 {
        try parse.expect(200, "POST", "/parse/batch", body: #"{"requests":[\#(Array(repeating: item, count: 1000).joined(separator: ","))]}"#)
    }
}

/// The query time budget (spec §7.11), on a query whose rows are checked by the regex engine.
final class ParseQueryTimeoutTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_QUERY_TIMEOUT": "0.1"] }

    func test_PA_083_query_time_budget() throws {
        try seedBigClass(parse)
        let slow = "where=" + q(#"{"t":{"$regex":"(a|b)*c"}}"#)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Big?\(slow)")["code"], 124)
        try parse.expect(200, "GET", "/parse/health")
        try parse.expect(200, "GET", "/parse/classes/Big?limit=1")
    }
}

/// The query time budget (spec §7.11) inside SQLite: a query compiled entirely to SQL whose single scan
/// outlasts the budget is interrupted there, answered with 124, and the server keeps serving.
final class ParseSQLQueryTimeoutTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_QUERY_TIMEOUT": "0.001"] }

    func test_PA_083_budget_interrupts_a_long_sql_scan() throws {
        try seedBigClass(parse)
        // A comparison the SQL compiler handles alone: no row matches, so nothing is streamed back to check a clock.
        let scan = "where=" + q(#"{"t":{"$gt":"zzzz"}}"#)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Big?\(scan)")["code"], 124)
        // A 1 ms budget is too short for any query, so responsiveness is shown on routes that run none.
        try parse.expect(200, "GET", "/parse/health")
        try parse.expect(200, "GET", "/parse/config")
    }
}
