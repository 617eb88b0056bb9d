import Foundation
import XCTest
import Core

/// Base class of the Couch conformance tests: a fresh `quartet serve` per test (nothing leaks between
/// checklist items) with a known admin password and an empty database `db` (spec §10's conventions).
class CouchTestCase: XCTestCase {
    static let password = "couch-conformance-password"
    var server: TestServer!

    /// Extra `QUARTET_*` variables for this class's servers.
    var environment: [String: String] { [:] }

    override func setUpWithError() throws {
        var env = ["QUARTET_ADMIN_PASSWORD": Self.password]
        for (key, value) in environment { env[key] = value }
        server = try TestServer(environment: env)
        let created = try send("PUT", "/db")
        guard created.status == 201 else {
            server.stop()
            throw XCTSkip("this quartet binary does not serve the Couch API: \(created.status) \(created.text)")
        }
    }

    override func tearDown() { server?.stop() }

    /// Who a request claims to be.
    enum Auth {
        case admin
        case anonymous
        case basic(String, String)
        case header(String)
    }

    static func basic(_ name: String, _ password: String) -> String {
        "Basic " + Data("\(name):\(password)".utf8).base64EncodedString()
    }

    /// One request to `/couch{path}` (or to `path` itself with `raw`), on a fresh connection.
    @discardableResult
    func send(_ method: String, _ path: String, body: String? = nil, bytes: [UInt8]? = nil,
              headers: [(String, String)] = [], auth: Auth = .admin, contentType: String? = "application/json",
              raw: Bool = false) throws -> TestResponse {
        var h = headers
        switch auth {
        case .admin: h.append(("Authorization", Self.basic("admin", Self.password)))
        case .anonymous: break
        case .basic(let name, let password): h.append(("Authorization", Self.basic(name, password)))
        case .header(let value): h.append(("Authorization", value))
        }
        let payload = bytes ?? body.map { Array($0.utf8) } ?? []
        if let contentType, body != nil || bytes != nil, !h.contains(where: { $0.0.lowercased() == "content-type" }) {
            h.append(("Content-Type", contentType))
        }
        return try server.request(method, raw ? path : "/couch" + path, headers: h, body: payload)
    }

    /// The body parsed with Core's JSON parser (key order kept), or `.null`.
    func json(_ r: TestResponse) -> JSON { (try? JSONParser.parse(r.body)) ?? .null }

    /// Compact JSON of a response body (order kept), for exact comparisons.
    func compact(_ r: TestResponse) -> String { json(r).serialized() }

    /// A Couch error: status, exact `{"error","reason"}` body, `Content-Type: application/json`, trailing `\n`.
    func assertError(_ r: TestResponse, _ status: Int, _ error: String, _ reason: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.text, file: file, line: line)
        XCTAssertEqual(r.header("Content-Type"), "application/json", file: file, line: line)
        XCTAssertEqual(json(r)["error"]?.stringValue, error, r.text, file: file, line: line)
        if let reason { XCTAssertEqual(json(r)["reason"]?.stringValue, reason, r.text, file: file, line: line) }
        XCTAssertEqual(r.body.last, UInt8(ascii: "\n"), file: file, line: line)
        XCTAssertEqual(json(r).objectValue?.keys, ["error", "reason"], r.text, file: file, line: line)
    }

    /// `PUT /db/{id}` (or another database) expecting 201 or 200; returns the new revision.
    @discardableResult
    func put(_ id: String, _ body: String, db: String = "db", query: String = "",
             file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try send("PUT", "/\(db)/\(id)\(query)", body: body)
        XCTAssertTrue(r.status == 201 || r.status == 200, "PUT \(id): \(r.status) \(r.text)", file: file, line: line)
        return json(r)["rev"]?.stringValue ?? ""
    }

    /// `GET /db{path}` as JSON.
    func get(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        let r = try send("GET", path)
        XCTAssertEqual(r.status, 200, "GET \(path): \(r.text)", file: file, line: line)
        return json(r)
    }

    /// The database's info object.
    func info(_ db: String = "db") throws -> JSON { try get("/\(db)") }

    /// 32 hex digits made of one repeated character.
    static func hex(_ c: Character) -> String { String(repeating: c, count: 32) }
}

/// Percent-encodes text as one URL component (everything but unreserved characters escaped).
func pct(_ text: String) -> String {
    let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}
