import Foundation
import XCTest
import Core

/// Admin API and CLI (BB-151 … BB-153, BB-158) and robustness (BB-154 … BB-156; BB-157, login timing, is in
/// `BackbeamEmailModeTests`).
final class BackbeamAdminTests: BackbeamTestCase {
    /// Runs the binary to completion and returns its exit status and stdout (stderr apart).
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = BinaryLocation.quartet
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func test_BB_151_cliCreatesAProjectARunningServerSees() throws {
        let arguments = ["backbeam", "create-project", "shop", "--data-dir", bb.server.dataDirectory.path,
                         "--migrations-dir", TestServer.migrationsDirectory.path]
        let (status, out, err) = try run(arguments)
        XCTAssertEqual(status, 0, out + err)
        let json = try JSONParser.parse(Array(out.utf8))
        XCTAssertEqual(json["project"], .string("shop"))
        let dev = json["environments"]?["dev"]?["keys"]?[0]
        let pro = json["environments"]?["pro"]?["keys"]?[0]
        let devKey = dev?["key"]?.stringValue ?? "", devSecret = dev?["secret"]?.stringValue ?? ""
        XCTAssertNotNil(devKey.range(of: "^dev_[0-9a-f]{40}$", options: .regularExpression), devKey)
        XCTAssertNotNil(devSecret.range(of: "^dev_[0-9a-f]{80}$", options: .regularExpression), devSecret)
        XCTAssertNotNil(pro?["key"]?.stringValue?.range(of: "^pro_[0-9a-f]{40}$", options: .regularExpression))
        XCTAssertNotNil(pro?["secret"]?.stringValue?.range(of: "^pro_[0-9a-f]{80}$", options: .regularExpression))
        let shop = BackbeamClient(server: bb.server, project: "shop", env: "dev", keys: BBKeys(key: devKey, secret: devSecret))
        XCTAssertEqual(try shop.send("GET", "/data/place").status, 200)
        let (again, _, message) = try run(arguments)
        XCTAssertNotEqual(again, 0)
        XCTAssertTrue(message.contains("already exists"), message)
    }

    func test_BB_152_adminCreatesProjects() throws {
        let name = "s" + projectName
        assertAdminRefused(try bb.admin("POST", "/projects", body: "name=\(name)", authorized: false))
        let withKeys = try bb.server.request("POST", "/_quartet/admin/backbeam/projects", headers: [
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Authorization", "Basic " + Base64.encode(Array("\(projectKeys.dev.key):\(projectKeys.dev.secret)".utf8))),
        ], body: "name=\(name)")
        assertAdminRefused(BBResponse(raw: withKeys))
        XCTAssertEqual(try bb.admin("POST", "/projects", body: "name=\(name)").status, 201)
        XCTAssertEqual(try bb.admin("POST", "/projects", body: "name=\(name)").status, 409)
        XCTAssertEqual(try bb.admin("POST", "/projects", body: "name=Bad_Name").status, 400)
        XCTAssertEqual(try bb.admin("POST", "/projects", body: "name=demo").status, 409, "declared in the configuration")
        let list = try bb.admin("GET", "/projects")
        let entries = list.json["projects"]?.arrayValue ?? []
        XCTAssertTrue(entries.contains { $0["project"] == .string(name) && $0["source"] == .string("created") })
        XCTAssertTrue(entries.contains { $0["project"] == .string("demo") && $0["source"] == .string("config") })
        let one = try bb.admin("GET", "/projects/\(name)")
        XCTAssertNotNil(one.json["environments"]?["pro"]?["keys"]?[0]?["secret"]?.stringValue)
        XCTAssertEqual(try bb.admin("GET", "/projects/nosuch").status, 404)
    }

    private func assertAdminRefused(_ r: BBResponse, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 401, r.text, file: file, line: line)
        XCTAssertEqual(r["error"], .string("Admin authentication required"), file: file, line: line)
        XCTAssertEqual(r.header("WWW-Authenticate"), "Basic realm=\"quartet\"", file: file, line: line)
    }

    func test_BB_153_revokedKeysStopWorking() throws {
        let added = try bb.admin("POST", "/projects/\(projectName)/dev/keys")
        XCTAssertEqual(added.status, 201, added.text)
        var second = api!
        second.keys = BBKeys(key: added["key"]?.stringValue ?? "", secret: added["secret"]?.stringValue ?? "")
        XCTAssertEqual(try second.send("GET", "/data/place").status, 200)
        let revoked = try bb.admin("DELETE", "/projects/\(projectName)/dev/keys/\(second.keys.key)")
        XCTAssertEqual(revoked.text, "{\"revoked\":true}")
        assertError(try second.send("GET", "/data/place"), 400, "InvalidApiKey")
        XCTAssertEqual(try bb.admin("DELETE", "/projects/\(projectName)/dev/keys/\(second.keys.key)").text, "{\"revoked\":false}")
        XCTAssertEqual(try api.send("GET", "/data/place").status, 200, "the other pair still works")
        XCTAssertEqual(try bb.admin("POST", "/projects/demo/dev/keys").status, 409)
    }

    func test_BB_154_sqlTextIsJustText() throws {
        let evil = "'; DROP TABLE place; --"
        let id = try create("place", p(("set-name", evil)))
        _ = try create("place", p(("set-name", "other")))
        let r = try api.send("GET", "/data/place", [("q", ["where name = ?"]), ("params", [evil])])
        XCTAssertEqual(r.ids, [id])
        XCTAssertEqual(r.object(id)?["name#t"], .string(evil))
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 2)
        XCTAssertEqual(try api.send("GET", "/data/place", [("q", ["where name like ?"]), ("params", [evil])]).status, 200)
    }

    func test_BB_155_internalFailureRevealsNothing() throws {
        let post = try create("post", p(("set-title", "x")))
        let comment = try create("comment", p(("set-score", "1")))
        let db = BackbeamDatabase(bb.server)
        _ = try db.query("ALTER TABLE bb_links RENAME TO bb_links_hidden")
        defer { _ = try? db.query("ALTER TABLE bb_links_hidden RENAME TO bb_links") }
        let r = try api.send("PUT", "/data/post/\(post)", [("add-comments", [comment])])
        assertError(r, 500, "InternalError")
        for leak in ["bb_links", "SQL", "sqlite", "/", "Storage", ".swift"] {
            XCTAssertFalse((r["errorMessage"]?.stringValue ?? "").contains(leak), r.text)
        }
    }

    func test_BB_156_accessLogHoldsNoSecrets() throws {
        var c = api!
        c.style = .android
        let id = try create("place", p(("set-name", "x")))
        _ = try c.send("DELETE", "/data/place/\(id)", p(("set-password", "hunter22"), ("code", "abcdef123456")))
        c.auth = "deadbeefdeadbeef"
        _ = try c.send("GET", "/data/place", p(("password", "hunter22")))
        // Users: the session code of a signup, a login, and the reset code the mailer handles.
        c.auth = nil
        let user = try c.send("POST", "/data/user", p(("set-email", "ana@example.com"), ("set-password", "hunter22")))
        XCTAssertEqual(user.status, 201, user.text)
        _ = try c.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "hunter22")))
        XCTAssertEqual(try c.send("POST", "/user/email/lostpassword", p(("email", "ana@example.com"))).status, 200)
        let mails = try bb.admin("GET", "/projects/\(projectName)/dev/outbox/email").json.arrayValue ?? []
        let resetCode = try XCTUnwrap(mails.first.flatMap(Self.code(in:)))
        // The mail's links: unsigned pages that carry the code in their query string, by Host and by prefix.
        for page in ["/user/email/reset", "/user/email/confirm"] {
            XCTAssertEqual(try c.raw("GET", "\(page)?code=\(resetCode)").status, 200, page)
            let prefixed = try bb.server.request("GET", "/backbeam/\(projectName)/dev\(page)?code=\(resetCode)")
            XCTAssertEqual(prefixed.status, 200, page)
        }
        // A JSONP read (every parameter, the signature included, in the query string) and a social signup
        // carrying provider tokens (refused here: no provider is configured, but logged all the same).
        c.style = .browser
        _ = try c.send("GET", "/data/place", p(("callback", "jsonp123")))
        _ = try c.send("POST", "/user/twitter/signup", p(("oauth_token", "twtoken987"), ("oauth_token_secret", "twsecret654")))
        _ = try c.send("POST", "/user/facebook/signup", p(("access_token", "fbtoken321")))
        Thread.sleep(forTimeInterval: 0.2)
        let log = bb.server.output
        XCTAssertTrue(log.contains("/data/place"), "the access log is on")
        XCTAssertTrue(log.contains("backbeam mail"), "the mailer logged the mail")
        XCTAssertTrue(log.contains("/user/email/reset"), "the pages were logged")
        for secret in ["password=", "auth=", "signature=", "code=", "hunter22", "deadbeefdeadbeef", projectKeys.dev.secret,
                       user["auth"]?.stringValue ?? "-", resetCode, "twtoken987", "twsecret654", "fbtoken321", "token="] {
            XCTAssertFalse(log.contains(secret), "the log contains \(secret)")
        }
    }

    func test_BB_158_declaredIndexes() throws {
        let path = "/projects/\(projectName)/dev/indexes"
        XCTAssertEqual(try bb.admin("POST", path, body: "entity=place&field=cat", authorized: false).status, 401)
        let created = try bb.admin("POST", path, body: "entity=place&field=cat")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.text, "{\"entity\":\"place\",\"field\":\"cat\"}")
        XCTAssertEqual(try bb.admin("POST", path, body: "entity=place&field=cat").status, 200)
        XCTAssertEqual(try bb.admin("GET", path).text, "{\"indexes\":[{\"entity\":\"place\",\"field\":\"cat\"}]}")
        let a = try create("place", p(("set-cat", "bar")))
        _ = try create("place", p(("set-cat", "pub")))
        XCTAssertEqual(try api.send("GET", "/data/place", [("q", ["where cat=?"]), ("params", ["bar"])]).ids, [a])
        let indexNames = try BackbeamDatabase(bb.server).query("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'bb_ix_%'")
        XCTAssertFalse(indexNames.isEmpty)
        XCTAssertEqual(try bb.admin("DELETE", path + "/place/cat").text, "{\"dropped\":true}")
        XCTAssertEqual(try bb.admin("DELETE", path + "/place/cat").text, "{\"dropped\":false}")
        XCTAssertEqual(try bb.admin("DELETE", path + "/place/cat", authorized: false).status, 401)
        XCTAssertEqual(try api.send("GET", "/data/place", [("q", ["where cat=?"]), ("params", ["bar"])]).ids, [a])
    }
}
