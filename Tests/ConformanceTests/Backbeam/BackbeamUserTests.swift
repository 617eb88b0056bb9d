import Foundation
import XCTest
import Core

/// Users: email signup, login, credentials of existing users, lost password, verification codes, the link
/// pages and sessions (§5.4, §3.7; BB-119 to BB-127, BB-130 to BB-134).
final class BackbeamUserTests: BackbeamTestCase {
    func test_BB_119_emailSignup() throws {
        let r = try api.send("POST", "/data/user", p(("set-email", "ana@example.com"), ("set-password", "secret1")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        let auth = r["auth"]?.stringValue ?? ""
        XCTAssertEqual(auth.count, 64)
        XCTAssertTrue(auth.allSatisfy { $0.isHexDigit && !$0.isUppercase }, auth)
        XCTAssertEqual(r.main?["email#t"]?.stringValue, "ana@example.com")
        XCTAssertFalse(r.text.contains("password"), r.text)
        // The session works: a request signed with it is accepted.
        var session = api!
        session.auth = auth
        XCTAssertEqual(try session.send("GET", "/data/user/\(r.id)").status, 200)
    }

    func test_BB_120_emailsAreUniqueCaseInsensitively() throws {
        try signup("ana@example.com", "secret1")
        let again = try api.send("POST", "/data/user", p(("set-email", "ANA@Example.com"), ("set-password", "other")))
        assertError(again, 400, "UserAlreadyExists")
        let statuses = Locked([Int]())
        let client = api!
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            let r = try? client.send("POST", "/data/user", p(("set-email", "race@example.com"), ("set-password", "secret1")))
            statuses.withLock { $0.append(r?.status ?? 0) }
        }
        XCTAssertEqual(statuses.withLock { $0 }.filter { $0 == 201 }.count, 1, "\(statuses.withLock { $0 })")
        XCTAssertEqual(statuses.withLock { $0 }.filter { $0 == 400 }.count, 19, "\(statuses.withLock { $0 })")
        XCTAssertEqual(try api.send("GET", "/data/user", p(("q", "where email = ?"), ("params", "race@example.com")))["count"]?.int64Value, 1)
    }

    func test_BB_121_anonymousUser() throws {
        let r = try api.send("POST", "/data/user")
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r["auth"]?.stringValue?.count, 64)
        XCTAssertEqual(r.main?["type"]?.stringValue, "user")
    }

    func test_BB_122_invalidCredentialsStoreNothing() throws {
        for params in [p(("set-email", "a@x.com"), ("set-password", String(repeating: "p", count: 73))),
                       p(("set-email", "a@x.com"), ("set-password", "")),
                       p(("set-email", "a b@x"), ("set-password", "secret1"))] {
            assertError(try api.send("POST", "/data/user", params), 400, "InvalidParameters")
        }
        XCTAssertEqual(try api.send("GET", "/data/user")["count"]?.int64Value, 0)
    }

    func test_BB_123_login() throws {
        let id = try signup("ana@example.com", "secret1").id
        let r = try api.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "secret1")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        XCTAssertEqual(r.id, id)
        XCTAssertNotNil(r.object(id))
        XCTAssertEqual(r["auth"]?.stringValue?.count, 64)
        assertError(try api.send("POST", "/user/email/login", p(("email", "bob@example.com"), ("password", "secret1"))), 404, "UserNotFound")
        assertError(try api.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "wrong"))), 403,
                    "InvalidCredentials")
        assertError(try api.send("POST", "/user/email/login", p(("email", "ana@example.com"))), 400, "MissingParameters")
        // An anonymous user has no password: never logged in by email.
        let anonymous = try api.send("POST", "/data/user", p(("set-email", "anon@example.com")))
        XCTAssertEqual(anonymous.status, 201)
        assertError(try api.send("POST", "/user/email/login", p(("email", "anon@example.com"), ("password", "x"))), 403,
                    "InvalidCredentials")
    }

    func test_BB_124_loginWithJoins() throws {
        let id = try signup("ana@example.com", "secret1").id
        let place = try create("place", p(("set-name", "Bar Pepe")))
        XCTAssertEqual(try api.send("PUT", "/data/user/\(id)", [("add-favorites", [place])]).status, 200)
        for name in ["joins", "q"] {
            let r = try api.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "secret1"),
                                                                 (name, "join last 5 favorites")))
            XCTAssertEqual(r.status, 200, r.text)
            XCTAssertEqual(r.main?["favorites#r"]?["result"]?.arrayValue?.compactMap(\.stringValue), [place], r.text)
            XCTAssertEqual(r.object(place)?["name#t"]?.stringValue, "Bar Pepe", r.text)
        }
    }

    func test_BB_126_passwordChangeNeedsTheUsersOwnAuth() throws {
        let ana = try signup("ana@example.com", "secret1")
        let bob = try signup("bob@example.com", "secret2")
        var asBob = api!
        asBob.auth = bob["auth"]?.stringValue
        var asAna = api!
        asAna.auth = ana["auth"]?.stringValue
        assertError(try api.send("PUT", "/data/user/\(ana.id)", p(("set-password", "x2"))), 403, "InvalidCredentials")
        assertError(try asBob.send("PUT", "/data/user/\(ana.id)", p(("set-password", "x2"))), 403, "InvalidCredentials")
        XCTAssertEqual(try login("ana@example.com", "secret1").status, 200)
        let changed = try asAna.send("PUT", "/data/user/\(ana.id)", p(("set-password", "x2")))
        XCTAssertEqual(changed.status, 200, changed.text)
        XCTAssertNil(changed["auth"], "updates never return auth")
        assertError(try login("ana@example.com", "secret1"), 403, "InvalidCredentials")
        XCTAssertEqual(try login("ana@example.com", "x2").status, 200)
    }

    func test_BB_127_emailChangeNeedsTheUsersOwnAuth() throws {
        let ana = try signup("ana@example.com", "secret1")
        let bob = try signup("bob@example.com", "secret2")
        var asBob = api!
        asBob.auth = bob["auth"]?.stringValue
        var asAna = api!
        asAna.auth = ana["auth"]?.stringValue
        assertError(try api.send("PUT", "/data/user/\(ana.id)", p(("set-email", "evil@example.com"))), 403, "InvalidCredentials")
        assertError(try asBob.send("PUT", "/data/user/\(ana.id)", p(("set-email", "evil@example.com"))), 403, "InvalidCredentials")
        assertError(try login("evil@example.com", "secret1"), 404, "UserNotFound")
        let renamed = try api.send("PUT", "/data/user/\(ana.id)", p(("set-name", "Ana")))
        XCTAssertEqual(renamed.status, 200, renamed.text)
        XCTAssertEqual(renamed.main?["name#t"]?.stringValue, "Ana")
        let moved = try asAna.send("PUT", "/data/user/\(ana.id)", p(("set-email", "ana2@example.com")))
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertEqual(try login("ana2@example.com", "secret1").status, 200)
        assertError(try login("ana@example.com", "secret1"), 404, "UserNotFound")
    }

    func test_BB_130_lostPasswordCodeVerifies() throws {
        let id = try signup("ana@example.com", "secret1").id
        let r = try api.send("POST", "/user/email/lostpassword", p(("email", "ana@example.com")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json, .object(JSONObject([("status", .string("Success"))])))
        let mail = try XCTUnwrap(try mails(to: "ana@example.com").first)
        XCTAssertEqual(mail["kind"]?.stringValue, "lostpassword")
        let code = try XCTUnwrap(Self.code(in: mail))
        let verified = try api.send("POST", "/user/email/verify", p(("code", code)))
        XCTAssertEqual(verified.status, 200, verified.text)
        XCTAssertEqual(verified.apiStatus, "Success")
        XCTAssertEqual(verified.id, id)
        XCTAssertNotNil(verified.object(id))
        XCTAssertEqual(verified["auth"]?.stringValue?.count, 64)
        assertError(try api.send("POST", "/user/email/verify", p(("code", code))), 400, "InvalidCode")
    }

    func test_BB_131_setPasswordRevokesOldSessions() throws {
        let ana = try signup("ana@example.com", "secret1")
        XCTAssertEqual(try api.send("POST", "/user/email/lostpassword", p(("email", "ana@example.com"))).status, 200)
        let code = try XCTUnwrap(try mails(to: "ana@example.com").first.flatMap(Self.code(in:)))
        assertError(try api.send("POST", "/user/email/setpassword", p(("code", code), ("password", ""))), 400, "InvalidParameters")
        let r = try api.send("POST", "/user/email/setpassword", p(("code", code), ("password", "newpass")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        let newAuth = try XCTUnwrap(r["auth"]?.stringValue)
        XCTAssertNotEqual(newAuth, ana["auth"]?.stringValue)
        var old = api!
        old.auth = ana["auth"]?.stringValue
        assertError(try old.send("GET", "/data/user/\(ana.id)"), 400, "InvalidAuthCode")
        var fresh = api!
        fresh.auth = newAuth
        XCTAssertEqual(try fresh.send("GET", "/data/user/\(ana.id)").status, 200)
        XCTAssertEqual(try login("ana@example.com", "newpass").status, 200)
        assertError(try login("ana@example.com", "secret1"), 403, "InvalidCredentials")
        assertError(try api.send("POST", "/user/email/setpassword", p(("code", code), ("password", "again"))), 400, "InvalidCode")
    }

    func test_BB_132_unknownEmailGarbageCodeAndConcurrentUse() throws {
        assertError(try api.send("POST", "/user/email/lostpassword", p(("email", "nobody@example.com"))), 404, "UserNotFound")
        assertError(try api.send("POST", "/user/email/verify", p(("code", "garbage"))), 400, "InvalidCode")
        assertError(try api.send("POST", "/user/email/verify"), 400, "MissingParameters")
        try signup("ana@example.com", "secret1")
        XCTAssertEqual(try api.send("POST", "/user/email/lostpassword", p(("email", "ana@example.com"))).status, 200)
        let code = try XCTUnwrap(try mails(to: "ana@example.com").first.flatMap(Self.code(in:)))
        let statuses = Locked([String]())
        let client = api!
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let r = try? client.send("POST", "/user/email/verify", p(("code", code)))
            statuses.withLock { $0.append(r?.apiStatus ?? "none") }
        }
        XCTAssertEqual(statuses.withLock { $0 }.sorted(), ["InvalidCode", "Success"])
    }

    func test_BB_133_emailLinkPages() throws {
        try signup("ana@example.com", "secret1")
        XCTAssertEqual(try api.send("POST", "/user/email/lostpassword", p(("email", "ana@example.com"))).status, 200)
        let first = try XCTUnwrap(try mails(to: "ana@example.com").first.flatMap(Self.code(in:)))
        // GET shows a page and leaves the code usable; POST consumes it.
        let confirmPage = try api.raw("GET", "/user/email/confirm?code=\(first)")
        XCTAssertEqual(confirmPage.status, 200, confirmPage.text)
        XCTAssertEqual(confirmPage.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(confirmPage.header("Cache-Control"), "no-store")
        XCTAssertEqual(confirmPage.header("Content-Security-Policy"),
                       "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
        XCTAssertTrue(confirmPage.text.contains("<form method=\"post\">"), confirmPage.text)
        let confirmed = try api.raw("POST", "/user/email/confirm", body: "code=\(first)")
        XCTAssertEqual(confirmed.status, 200, confirmed.text)
        assertError(try api.send("POST", "/user/email/verify", p(("code", first))), 400, "InvalidCode")
        XCTAssertEqual(try api.send("POST", "/user/email/lostpassword", p(("email", "ana@example.com"))).status, 200)
        let second = try XCTUnwrap(try mails(to: "ana@example.com").first.flatMap(Self.code(in:)))
        XCTAssertNotEqual(first, second)
        let resetPage = try api.raw("GET", "/user/email/reset?code=\(second)")
        XCTAssertEqual(resetPage.status, 200)
        XCTAssertTrue(resetPage.text.contains("type=\"password\" name=\"password\""), resetPage.text)
        let bad = try api.raw("POST", "/user/email/reset", body: "code=nope&password=newpass&password2=newpass")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.header("Content-Type"), "text/html; charset=utf-8")
        let reset = try api.raw("POST", "/user/email/reset", body: "code=\(second)&password=newpass&password2=newpass")
        XCTAssertEqual(reset.status, 200, reset.text)
        XCTAssertEqual(try login("ana@example.com", "newpass").status, 200)
        assertError(try login("ana@example.com", "secret1"), 403, "InvalidCredentials")
    }

    func test_BB_134_deletingAUserEndsItsSessions() throws {
        let ana = try signup("ana@example.com", "secret1")
        var session = api!
        session.auth = ana["auth"]?.stringValue
        XCTAssertEqual(try session.send("GET", "/data/user/\(ana.id)").status, 200)
        XCTAssertEqual(try api.send("DELETE", "/data/user/\(ana.id)").status, 200)
        assertError(try session.send("GET", "/data/place"), 400, "InvalidAuthCode")
        assertError(try login("ana@example.com", "secret1"), 404, "UserNotFound")
    }
}

extension BackbeamTestCase {
    /// `POST /data/user` with an email and a password; asserts 201.
    @discardableResult
    func signup(_ email: String, _ password: String, client: BackbeamClient? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> BBResponse {
        let r = try (client ?? api).send("POST", "/data/user", p(("set-email", email), ("set-password", password)))
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        return r
    }

    func login(_ email: String, _ password: String, client: BackbeamClient? = nil) throws -> BBResponse {
        try (client ?? api).send("POST", "/user/email/login", p(("email", email), ("password", password)))
    }

    /// The recorded mails to `to` of this test's project (or `project`), newest first.
    func mails(to: String, project: String? = nil, env: String = "dev") throws -> [JSON] {
        let r = try bb.admin("GET", "/projects/\(project ?? projectName)/\(env)/outbox/email?to=\(to)")
        XCTAssertEqual(r.status, 200, r.text)
        return r.json.arrayValue ?? []
    }

    /// The state of the newest mail to `email` once the outbox is done with it (it leaves `queued` after a
    /// delivery or after its last failed attempt), and the mail; waits up to 5 s.
    func outboxState(_ email: String) throws -> (state: String?, mail: JSON?) {
        var mail = try mails(to: email).first
        for _ in 0..<250 where mail?["state"]?.stringValue == "queued" {
            usleep(20_000)
            mail = try mails(to: email).first
        }
        return (mail?["state"]?.stringValue, mail)
    }

    /// The 64-hex code in a mail's text.
    static func code(in mail: JSON) -> String? {
        let text = mail["text"]?.stringValue ?? ""
        guard let range = text.range(of: "code: ") else { return nil }
        let code = String(text[range.upperBound...].prefix(64))
        return code.count == 64 ? code : nil
    }
}
