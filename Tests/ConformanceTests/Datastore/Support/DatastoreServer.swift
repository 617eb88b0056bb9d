import Foundation
import XCTest
import Core

/// A `quartet serve` with datastore users configured through static tokens, plus a form-encoding client
/// for the datastore endpoints. Users are created in configuration order: alice uid 1, bob 2, carol 3,
/// dave 4 (dave never owns anything unless a test makes him).
final class DatastoreServer: @unchecked Sendable {
    static let tokenA = token("alice"), tokenB = token("bob"), tokenC = token("carol"), tokenD = token("dave")
    static let adminPassword = "conformance-admin-secret"

    /// A 43-character token in the issued alphabet, derived from a name.
    static func token(_ name: String) -> String {
        let base = "static_" + name + "_"
        return base + String(repeating: "0", count: max(0, 43 - base.count))
    }

    let server: TestServer
    let environment: [String: String]

    /// Starts a server. `environment` adds `QUARTET_*` variables (e.g. `QUARTET_DATASTORE_AWAIT_TIMEOUT_SECONDS`).
    init(environment: [String: String] = [:], extraUsers: [String] = [], dataDirectory: URL? = nil) throws {
        var tokens = [("alice", Self.tokenA), ("bob", Self.tokenB), ("carol", Self.tokenC), ("dave", Self.tokenD)]
        tokens += extraUsers.map { ($0, Self.token($0)) }
        let staticTokens = "{" + tokens.map { "\"\($0.1)\":\"\($0.0)\"" }.joined(separator: ",") + "}"
        var env = ["QUARTET_DATASTORE_STATIC_TOKENS": staticTokens, "QUARTET_ADMIN_PASSWORD": Self.adminPassword,
                   "QUARTET_STORAGE_SYNCHRONOUS": "NORMAL"]
        for (k, v) in environment { env[k] = v }
        self.environment = env
        server = try TestServer(environment: env, dataDirectory: dataDirectory)
    }

    /// Form-encodes name/value pairs (`application/x-www-form-urlencoded`).
    static func form(_ params: [(String, String)]) -> String {
        params.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// Percent-encodes everything but unreserved characters.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Calls an endpoint. POST sends `params` as a form body; GET puts them in the query string.
    func call(_ endpoint: String, _ params: [(String, String)] = [], token: String? = DatastoreServer.tokenA,
              method: String = "POST", prefix: String = "/1/datastores", headers: [(String, String)] = [],
              client: HTTPTestClient? = nil) throws -> DSResponse {
        var allHeaders = headers
        if let token { allHeaders.append(("Authorization", "Bearer \(token)")) }
        var target = prefix + "/" + endpoint
        var body: [UInt8] = []
        if method == "GET" {
            if !params.isEmpty { target += "?" + Self.form(params) }
        } else {
            body = Array(Self.form(params).utf8)
            if !allHeaders.contains(where: { $0.0.lowercased() == "content-type" }) {
                allHeaders.append(("Content-Type", "application/x-www-form-urlencoded"))
            }
        }
        let response: TestResponse
        if let client {
            response = try client.request(method, target, headers: allHeaders, body: body)
        } else {
            response = try server.request(method, target, headers: allHeaders, body: body, timeout: 70)
        }
        return DSResponse(response)
    }

    // MARK: common steps

    /// get_or_create_datastore → handle.
    func create(_ dsid: String = "default", token: String = DatastoreServer.tokenA) throws -> String {
        let r = try call("get_or_create_datastore", [("dsid", dsid)], token: token)
        guard let handle = r["handle"]?.stringValue else { throw DSTestError.unexpected(r.text) }
        return handle
    }

    /// create_datastore for a shareable dsid derived from `key` → handle.
    func createShared(key: String, token: String = DatastoreServer.tokenA) throws -> String {
        let r = try call("create_datastore", [("dsid", Self.shareableDsid(key)), ("key", key)], token: token)
        guard let handle = r["handle"]?.stringValue else { throw DSTestError.unexpected(r.text) }
        return handle
    }

    /// put_delta with `changes` JSON text.
    @discardableResult
    func put(_ handle: String, rev: Int, _ changes: String, nonce: String? = nil,
             token: String = DatastoreServer.tokenA) throws -> DSResponse {
        var params = [("handle", handle), ("rev", String(rev)), ("changes", changes)]
        if let nonce { params.append(("nonce", nonce)) }
        return try call("put_delta", params, token: token)
    }

    /// get_snapshot.
    func snapshot(_ handle: String, token: String = DatastoreServer.tokenA) throws -> DSResponse {
        try call("get_snapshot", [("handle", handle)], token: token, method: "GET")
    }

    /// get_deltas.
    func deltas(_ handle: String, rev: Int, token: String = DatastoreServer.tokenA) throws -> DSResponse {
        try call("get_deltas", [("handle", handle), ("rev", String(rev))], token: token, method: "GET")
    }

    /// The `:acl` grant `principal` → role as a one-change delta.
    static func grant(_ principal: String, _ role: Int) -> String {
        "[[\"I\",\":acl\",\"\(principal)\",{\"role\":{\"I\":\"\(role)\"}}]]"
    }

    /// `"." + dbase64(SHA-256(key))`.
    static func shareableDsid(_ key: String) -> String {
        "." + Base64.encodeURLSafe(Crypto.sha256(Array(key.utf8)), padded: false)
    }

    /// HTTP Basic header of the server admin.
    static var adminAuthorization: (String, String) {
        ("Authorization", "Basic " + Base64.encode(Array("admin:\(adminPassword)".utf8)))
    }
}

/// A response with its body parsed by Core's JSON parser (number lexemes kept).
struct DSResponse: @unchecked Sendable {
    let status: Int
    let raw: TestResponse
    let json: JSON?

    init(_ response: TestResponse) {
        status = response.status
        raw = response
        json = try? JSONParser.parse(response.body)
    }

    var text: String { raw.text }
    func header(_ name: String) -> String? { raw.header(name) }
    subscript(key: String) -> JSON? { json?[key] }
    /// Top-level keys in order.
    var keys: [String] { json?.objectValue?.keys ?? [] }
}

enum DSTestError: Error { case unexpected(String) }
