import Foundation
import XCTest
import Core

/// DS-022 … DS-039: authentication, users and tokens.
final class DatastoreAuthTests: DatastoreTestCase {
    private func raw(_ target: String, headers: [(String, String)] = [], body: String? = nil) throws -> DSResponse {
        var h = headers
        if body != nil { h.append(("Content-Type", "application/x-www-form-urlencoded")) }
        return DSResponse(try ds.server.request(body == nil ? "GET" : "POST", target, headers: h, body: body ?? ""))
    }

    /// Runs `quartet datastore token ...` against the server's data directory.
    private func cli(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = BinaryLocation.quartet
        process.arguments = ["datastore", "token"] + arguments + ["--data-dir", ds.server.dataDirectory.path,
                                                                   "--migrations-dir", TestServer.migrationsDirectory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    private func admin(_ path: String, _ form: String, authorized: Bool = true) throws -> DSResponse {
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if authorized { headers.append(DatastoreServer.adminAuthorization) }
        return DSResponse(try ds.server.request("POST", "/_quartet/admin/datastore" + path, headers: headers, body: form))
    }

    func test_DS_022_missing_credentials() throws {
        let r = try ds.call("list_datastores", token: nil)
        assertError(r, 401)
        XCTAssertEqual(r["error"]?.stringValue, "Missing access token")
        XCTAssertNotNil(r.header("WWW-Authenticate"))
    }

    func test_DS_023_unknown_bearer() throws {
        let r = try ds.call("list_datastores", token: DatastoreServer.token("nobody"))
        assertError(r, 401)
        XCTAssertEqual(r["error"]?.stringValue, "Invalid access token")
    }

    func test_DS_024_valid_bearer() throws {
        XCTAssertEqual(try ds.call("list_datastores").status, 200)
    }

    func test_DS_025_access_token_parameter() throws {
        XCTAssertEqual(try raw("/1/datastores/list_datastores?access_token=\(DatastoreServer.tokenA)").status, 200)
        XCTAssertEqual(try raw("/1/datastores/list_datastores", body: "access_token=\(DatastoreServer.tokenA)").status, 200)
    }

    func test_DS_026_oauth1_plaintext_parameters() throws {
        _ = try ds.create(token: DatastoreServer.tokenB)
        let form = "oauth_consumer_key=k&oauth_token=\(DatastoreServer.tokenB)&oauth_signature_method=PLAINTEXT"
            + "&oauth_signature=s%26ts&oauth_timestamp=1400000000&oauth_nonce=12345678&oauth_version=1.0"
        let r = try raw("/1/datastores/list_datastores", body: form)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r["datastores"]?.arrayValue?.count, 1)
        XCTAssertEqual(try raw("/1/datastores/list_datastores?" + form).status, 200)
    }

    func test_DS_027_oauth1_header() throws {
        _ = try ds.create(token: DatastoreServer.tokenB)
        let r = try raw("/1/datastores/list_datastores",
                        headers: [("Authorization", "OAuth oauth_token=\"\(DatastoreServer.tokenB)\", oauth_signature=\"x\"")])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r["datastores"]?.arrayValue?.count, 1)
    }

    func test_DS_028_header_decides() throws {
        let r = try raw("/1/datastores/list_datastores?access_token=\(DatastoreServer.token("nobody"))",
                        headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)")])
        XCTAssertEqual(r.status, 200)
    }

    func test_DS_029_no_fall_through() throws {
        let r = try raw("/1/datastores/list_datastores?access_token=\(DatastoreServer.tokenA)",
                        headers: [("Authorization", "Bearer \(DatastoreServer.token("nobody"))")])
        assertError(r, 401)
    }

    func test_DS_030_basic_scheme_refused() throws {
        assertError(try raw("/1/datastores/list_datastores", headers: [("Authorization", "Basic dXNlcjpwYXNz")]), 401)
    }

    func test_DS_031_cli_revoke() throws {
        let created = try cli(["create", "erin"])
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(created.status, 0)
        XCTAssertEqual(try ds.call("list_datastores", token: token).status, 200)
        XCTAssertEqual(try cli(["revoke", token]).status, 0)
        assertError(try ds.call("list_datastores", token: token), 401)
    }

    func test_DS_032_cli_create_prints_token() throws {
        let created = try cli(["create", "alice"])
        XCTAssertEqual(created.status, 0)
        let lines = created.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        let token = String(lines.first ?? "")
        XCTAssertNotNil(token.range(of: "^[A-Za-z0-9_-]{43}$", options: .regularExpression))
        let h = try ds.create(token: token)
        // Same user as the static token of alice.
        XCTAssertEqual(try ds.call("get_datastore", [("dsid", "default")])["handle"]?.stringValue, h)
    }

    func test_DS_033_no_plaintext_token_in_database() throws {
        let issued = try admin("/tokens", "user=frank")
        guard let token = issued["token"]?.stringValue else { return XCTFail(issued.text) }
        ds.server.stop(removeData: false)
        var found = false
        let files = (try? FileManager.default.contentsOfDirectory(atPath: ds.server.dataDirectory.path)) ?? []
        for file in files where file.hasPrefix("quartet.sqlite") {
            let data = (try? Data(contentsOf: ds.server.dataDirectory.appendingPathComponent(file))) ?? Data()
            if data.range(of: Data(token.utf8)) != nil { found = true }
            if data.range(of: Data(DatastoreServer.tokenA.utf8)) != nil { found = true }
        }
        XCTAssertFalse(files.isEmpty)
        XCTAssertFalse(found, "a plaintext token is stored")
        try? FileManager.default.removeItem(at: ds.server.dataDirectory)
    }

    func test_DS_034_admin_issue_requires_admin() throws {
        assertError(try admin("/tokens", "user=bob", authorized: false), 401)
        let r = try admin("/tokens", "user=bob")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r["user"]?.stringValue, "bob")
        XCTAssertEqual(r["uid"]?.int64Value, 2)
        XCTAssertNotNil(r["token"]?.stringValue?.range(of: "^[A-Za-z0-9_-]{43}$", options: .regularExpression))
    }

    func test_DS_035_admin_refuses_datastore_token() throws {
        let r = DSResponse(try ds.server.request("POST", "/_quartet/admin/datastore/tokens",
                                                 headers: [("Authorization", "Bearer \(DatastoreServer.tokenA)"),
                                                           ("Content-Type", "application/x-www-form-urlencoded")],
                                                 body: "user=bob"))
        assertError(r, 401)
    }

    func test_DS_036_admin_revoke() throws {
        guard let token = try admin("/tokens", "user=gina")["token"]?.stringValue else { return XCTFail("no token") }
        XCTAssertEqual(try ds.call("list_datastores", token: token).status, 200)
        XCTAssertEqual(try admin("/tokens/revoke", "token=\(token)").text, "{\"revoked\":true}")
        assertError(try ds.call("list_datastores", token: token), 401)
        XCTAssertEqual(try admin("/tokens/revoke", "token=\(token)").text, "{\"revoked\":false}")
    }

    func test_DS_037_static_tokens() throws {
        XCTAssertEqual(try ds.call("list_datastores", token: DatastoreServer.tokenC).status, 200)
        let bad = try? TestServer(environment: ["QUARTET_DATASTORE_STATIC_TOKENS": "{\"bad token!\":\"zed\"}",
                                                "QUARTET_ADMIN_PASSWORD": "x"], timeout: 15)
        XCTAssertNil(bad, "a static token outside the client pattern must prevent start-up")
        bad?.stop()
    }

    func test_DS_038_uids_in_creation_order() throws {
        XCTAssertEqual(try admin("/tokens", "user=alice")["uid"]?.int64Value, 1)
        XCTAssertEqual(try admin("/tokens", "user=bob")["uid"]?.int64Value, 2)
        XCTAssertEqual(try admin("/tokens", "user=carol")["uid"]?.int64Value, 3)
        XCTAssertEqual(try admin("/tokens", "user=newcomer")["uid"]?.int64Value, 5)
        XCTAssertEqual(try admin("/tokens", "user=newcomer")["uid"]?.int64Value, 5)
        XCTAssertEqual(try admin("/tokens", "user=another")["uid"]?.int64Value, 6)
    }

    func test_DS_039_access_log_redacts_credentials() throws {
        _ = try raw("/1/datastores/list_datastores?access_token=\(DatastoreServer.tokenA)")
        _ = try raw("/1/datastores/list_datastores", body: "oauth_token=\(DatastoreServer.tokenB)&oauth_signature=sig%26secretsig")
        _ = try ds.call("list_datastores", token: DatastoreServer.tokenC)
        Thread.sleep(forTimeInterval: 0.5)
        let log = ds.server.output
        // The three requests were logged (the check below means nothing on an empty log), the query's
        // credential with its value withheld.
        let lines = log.split(separator: "\n").filter { $0.contains("/1/datastores/list_datastores") }
        XCTAssertGreaterThanOrEqual(lines.count, 3, log)
        XCTAssertTrue(lines.contains { $0.contains("access_token=***") }, log)
        for secret in [DatastoreServer.tokenA, DatastoreServer.tokenB, DatastoreServer.tokenC, "secretsig"] {
            XCTAssertFalse(log.contains(secret), "log contains \(secret)")
        }
    }
}
