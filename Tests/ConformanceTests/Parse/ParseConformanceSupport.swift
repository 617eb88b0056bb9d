import Foundation
import XCTest
import Core

/// A `quartet serve` with a known Parse application id and master key, plus helpers that speak Parse.
final class ParseServer: @unchecked Sendable {
    static let appId = "confAppId"
    static let masterKey = "confMasterKey0123456789"

    let server: TestServer

    /// `environment` adds or overrides `QUARTET_*` variables (e.g. `QUARTET_PARSE_CLIENT_KEY`).
    init(environment: [String: String] = [:]) throws {
        var env = ["QUARTET_PARSE_APP_ID": Self.appId, "QUARTET_PARSE_MASTER_KEY": Self.masterKey,
                   "QUARTET_ADMIN_PASSWORD": "conformance-admin-password"]
        for (k, v) in environment { env[k] = v }
        server = try TestServer(environment: env)
        // Binaries that do not mount the Parse API answer /parse/health with a non-Parse 404.
        let probe = try server.request("GET", "/parse/health")
        if probe.status != 200 {
            server.stop()
            throw XCTSkip("this quartet binary does not mount the Parse API")
        }
    }

    func stop() { server.stop() }

    static func headers(master: Bool = false, session: String? = nil, _ extra: [(String, String)] = []) -> [(String, String)] {
        var h = [("X-Parse-Application-Id", appId)]
        if master { h.append(("X-Parse-Master-Key", masterKey)) }
        if let session { h.append(("X-Parse-Session-Token", session)) }
        return h + extra
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = ParseServer.headers(),
              body: String? = nil) throws -> TestResponse {
        var h = headers
        if let body, !h.contains(where: { $0.0.lowercased() == "content-type" }), !body.isEmpty {
            h.append(("Content-Type", "application/json"))
        }
        return try server.request(method, target, headers: h, body: body ?? "")
    }

    /// Sends and checks the status; returns the body as JSON.
    @discardableResult
    func expect(_ status: Int, _ method: String, _ target: String, headers: [(String, String)] = ParseServer.headers(),
                body: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        let r = try send(method, target, headers: headers, body: body)
        XCTAssertEqual(r.status, status, "\(method) \(target) -> \(r.text)", file: file, line: line)
        return (try? JSONParser.parse(r.body)) ?? .null
    }

    /// `expect` with the status last, as the in-process tests write it.
    @discardableResult
    func json(_ method: String, _ target: String, headers: [(String, String)] = ParseServer.headers(), body: String? = nil,
              status: Int, file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        try expect(status, method, target, headers: headers, body: body, file: file, line: line)
    }

    /// Creates an object and returns its id.
    func create(_ cls: String, _ body: String, headers: [(String, String)] = ParseServer.headers(),
                file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let j = try expect(201, "POST", "/parse/classes/\(cls)", headers: headers, body: body, file: file, line: line)
        return j["objectId"]?.stringValue ?? ""
    }

    /// Signs up a user; returns (objectId, sessionToken).
    func signUp(_ username: String, _ password: String = "secret", email: String? = nil) throws -> (String, String) {
        var body: JSONObject = ["username": .string(username), "password": .string(password)]
        if let email { body["email"] = .string(email) }
        let j = try expect(201, "POST", "/parse/users", body: JSON.object(body).serialized())
        return (j["objectId"]?.stringValue ?? "", j["sessionToken"]?.stringValue ?? "")
    }

    /// Count of a class's objects as the master key sees them.
    func masterCount(_ cls: String) throws -> Int {
        let j = try expect(200, "GET", "/parse/classes/\(cls)?count=1&limit=0", headers: Self.headers(master: true))
        return Int(j["count"]?.int64Value ?? -1)
    }
}

/// Percent-encodes a query value (JSON text) for a URL.
func q(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

/// A test case with a fresh Parse server per test.
class ParseConformanceCase: XCTestCase {
    var parse: ParseServer!
    /// Extra environment for this class's servers.
    var environment: [String: String] { [:] }

    override func setUpWithError() throws { parse = try ParseServer(environment: environment) }
    override func tearDown() { parse?.stop() }
}
