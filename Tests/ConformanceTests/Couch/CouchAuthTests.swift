import Foundation
import XCTest
import Core

/// Checklist CD-016…CD-024: authentication and authorization (spec §2.7, §2.8, §3.1.5).
final class CouchAuthTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_SESSION_TIMEOUT": "5"] }

    /// `POST /_session` with form credentials; returns the `AuthSession=…` pair.
    private func login() throws -> String {
        let r = try send("POST", "/_session", body: "name=admin&password=\(Self.password)", auth: .anonymous,
                         contentType: "application/x-www-form-urlencoded")
        XCTAssertEqual(r.status, 200, r.text)
        return String((r.header("Set-Cookie") ?? "").prefix { $0 != ";" })
    }

    func test_CD_016_anonymousDatabaseAccessIs401WhetherOrNotItExists() throws {
        for path in ["/db", "/nosuchdb"] {
            assertError(try send("GET", path, auth: .anonymous), 401, "unauthorized", "You are not authorized to access this db.")
        }
    }

    func test_CD_017_badCredentialsAre401EverywhereAndAdminEndpointsNeedTheAdmin() throws {
        assertError(try send("GET", "/", auth: .basic("admin", "wrong")), 401, "unauthorized", "Name or password is incorrect.")
        assertError(try send("GET", "/", auth: .header("Basic !!!")), 401, "unauthorized", "Name or password is incorrect.")
        assertError(try send("GET", "/_all_dbs", auth: .anonymous), 401, "unauthorized", "You are not a server admin.")
        assertError(try send("PUT", "/newdb", auth: .anonymous), 401, "unauthorized", "You are not a server admin.")
        // Other schemes are ignored: the request is anonymous.
        XCTAssertEqual(try send("GET", "/", auth: .header("Bearer xyz")).status, 200)
    }

    func test_CD_018_sessionLoginWithJSONAndForm() throws {
        let asJSON = try send("POST", "/_session", body: #"{"name":"admin","password":"\#(Self.password)"}"#, auth: .anonymous)
        let asForm = try send("POST", "/_session", body: "username=admin&password=\(Self.password)", auth: .anonymous,
                              contentType: "application/x-www-form-urlencoded")
        for r in [asJSON, asForm] {
            XCTAssertEqual(r.status, 200, r.text)
            XCTAssertEqual(compact(r), #"{"ok":true,"name":"admin","roles":["_admin"]}"#)
            let cookie = try XCTUnwrap(r.header("Set-Cookie"))
            for part in ["AuthSession=", "Path=/", "Max-Age=5", "HttpOnly"] { XCTAssertTrue(cookie.contains(part), cookie) }
        }
    }

    func test_CD_019_wrongPasswordClearsTheCookie() throws {
        let r = try send("POST", "/_session", body: #"{"name":"admin","password":"nope"}"#, auth: .anonymous)
        assertError(r, 401, "unauthorized", "Name or password is incorrect.")
        let cookie = try XCTUnwrap(r.header("Set-Cookie"))
        XCTAssertTrue(cookie.hasPrefix("AuthSession=;"), cookie)
        XCTAssertTrue(cookie.contains("Max-Age=0"), cookie)
    }

    func test_CD_020_sessionBodyErrors() throws {
        assertError(try send("POST", "/_session", body: "x", auth: .anonymous, contentType: "text/plain"), 415,
                    "bad_content_type", "Content-Type must be 'application/x-www-form-urlencoded' or 'application/json'")
        assertError(try send("POST", "/_session", body: "{}", auth: .anonymous), 400, "bad_request",
                    "request body must contain a username")
        assertError(try send("POST", "/_session", body: #"{"name":"a","username":"b","password":"x"}"#, auth: .anonymous),
                    400, "bad_request", "request body contains different usernames")
    }

    func test_CD_021_whoAmI() throws {
        let anonymous = try send("GET", "/_session", auth: .anonymous)
        XCTAssertEqual(compact(anonymous),
                       #"{"ok":true,"userCtx":{"name":null,"roles":[]},"info":{"authentication_handlers":["cookie","default"],"authentication_db":"_users"}}"#)
        let cookie = try login()
        let byCookie = json(try send("GET", "/_session", headers: [("Cookie", cookie)], auth: .anonymous))
        XCTAssertEqual(byCookie["userCtx"]?["name"]?.stringValue, "admin")
        XCTAssertEqual(byCookie["info"]?["authenticated"]?.stringValue, "cookie")
        let byBasic = json(try send("GET", "/_session"))
        XCTAssertEqual(byBasic["userCtx"]?["roles"]?.serialized(), #"["_admin"]"#)
        XCTAssertEqual(byBasic["info"]?["authenticated"]?.stringValue, "default")
        assertError(try send("GET", "/_session?basic=true", auth: .anonymous), 401, "unauthorized", "Please login.")
    }

    func test_CD_022_logoutAndRedirects() throws {
        let logout = try send("DELETE", "/_session", auth: .anonymous)
        XCTAssertEqual(logout.status, 200)
        XCTAssertEqual(compact(logout), #"{"ok":true}"#)
        XCTAssertTrue(logout.header("Set-Cookie")?.contains("Max-Age=0") ?? false)
        let redirected = try send("POST", "/_session?next=/couch/db", body: "name=admin&password=\(Self.password)",
                                  auth: .anonymous, contentType: "application/x-www-form-urlencoded")
        XCTAssertEqual(redirected.status, 302, redirected.text)
        XCTAssertEqual(redirected.header("Location"), "http://127.0.0.1/couch/db")
        XCTAssertNotNil(redirected.header("Set-Cookie"))
        XCTAssertEqual(compact(redirected), #"{"ok":true,"name":"admin","roles":["_admin"]}"#)
        let open = try send("POST", "/_session?next=https://evil.example/", body: "name=admin&password=\(Self.password)",
                            auth: .anonymous, contentType: "application/x-www-form-urlencoded")
        XCTAssertEqual(open.status, 200)
        XCTAssertNil(open.header("Location"))
        let protocolRelative = try send("POST", "/_session?next=//evil.example/", body: "name=admin&password=\(Self.password)",
                                        auth: .anonymous, contentType: "application/x-www-form-urlencoded")
        XCTAssertEqual(protocolRelative.status, 200)
    }

    func test_CD_023_expiredTamperedAndMalformedCookiesAreAnonymous() throws {
        let cookie = try login()
        var bytes = Array(cookie.utf8)
        let last = bytes.count - 3
        bytes[last] = bytes[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = String(decoding: bytes, as: UTF8.self)
        for value in [tampered, "AuthSession=%%%", "AuthSession="] {
            assertError(try send("GET", "/db", headers: [("Cookie", value)], auth: .anonymous), 401, "unauthorized",
                        "You are not authorized to access this db.")
            XCTAssertEqual(try send("GET", "/", headers: [("Cookie", value)], auth: .anonymous).status, 200)
        }
        XCTAssertEqual(try send("GET", "/db", headers: [("Cookie", cookie)], auth: .anonymous).status, 200)
        Thread.sleep(forTimeInterval: 6.2)   // past couch.sessionTimeout (5 s here)
        assertError(try send("GET", "/db", headers: [("Cookie", cookie)], auth: .anonymous), 401, "unauthorized",
                    "You are not authorized to access this db.")
        XCTAssertEqual(try send("GET", "/", headers: [("Cookie", cookie)], auth: .anonymous).status, 200)
    }

    func test_CD_024_cookieRefreshAndPrecedenceOverBasic() throws {
        let cookie = try login()
        let fresh = try send("GET", "/db", headers: [("Cookie", cookie)], auth: .anonymous)
        XCTAssertNil(fresh.header("Set-Cookie"))
        Thread.sleep(forTimeInterval: 1.2)   // past 10% of 5 s
        let later = try send("GET", "/db", headers: [("Cookie", cookie)], auth: .anonymous)
        XCTAssertEqual(later.status, 200)
        let renewed = try XCTUnwrap(later.header("Set-Cookie"))
        XCTAssertTrue(renewed.hasPrefix("AuthSession="), renewed)
        XCTAssertNotEqual(String(renewed.prefix { $0 != ";" }), cookie)
        // A valid cookie wins over a wrong Basic header.
        let both = try send("GET", "/db", headers: [("Cookie", cookie)], auth: .basic("admin", "wrong"))
        XCTAssertEqual(both.status, 200, both.text)
    }

    /// A Basic header the server remembers as verified is still refused, like every other, from an address that
    /// used up its failed logins; another address keeps working.
    func testRememberedCredentialsObeyTheFailedLoginLimit() throws {
        let good = [("Authorization", Self.basic("admin", Self.password))]
        XCTAssertEqual(try server.request("GET", "/couch/db", headers: good, source: "127.0.0.3").status, 200)
        for attempt in 1...10 {
            let r = try server.request("GET", "/couch/db", headers: [("Authorization", Self.basic("admin", "wrong\(attempt)"))],
                                       source: "127.0.0.3")
            XCTAssertEqual(r.status, 401, r.text)
        }
        let limited = try server.request("GET", "/couch/db", headers: good, source: "127.0.0.3")
        assertError(limited, 429, "too_many_requests")
        XCTAssertNotNil(limited.header("Retry-After"))
        XCTAssertEqual(try server.request("GET", "/couch/db", headers: good, source: "127.0.0.4").status, 200)
    }
}

/// CD-018 with the default `couch.sessionTimeout` (600 s): the cookie's `Max-Age` (`CouchAuthTests` runs at 5 s).
final class CouchDefaultSessionTests: CouchTestCase {
    func test_CD_018_defaultCookieLifetimeIs600Seconds() throws {
        let r = try send("POST", "/_session", body: #"{"name":"admin","password":"\#(Self.password)"}"#, auth: .anonymous)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(compact(r), #"{"ok":true,"name":"admin","roles":["_admin"]}"#)
        let cookie = try XCTUnwrap(r.header("Set-Cookie"))
        for part in ["AuthSession=", "Path=/", "Max-Age=600", "HttpOnly"] { XCTAssertTrue(cookie.contains(part), cookie) }
    }
}
