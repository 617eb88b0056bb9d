import Foundation
import XCTest
import Core

/// Checklist CD-175…CD-180: the `_users` database, PBKDF2 passwords, user login and the built-in rules
/// (spec §2.7, §3.1.5, §3.10).
final class CouchUsersTests: CouchTestCase {
    override var environment: [String: String] {
        ["QUARTET_COUCH_PASSWORD_ITERATIONS": "1000", "QUARTET_COUCH_SESSION_TIMEOUT": "600"]
    }

    private let bob = Auth.basic("bob", "pw")
    private let bobDoc = "/_users/org.couchdb.user:bob"

    /// `POST /_session` as `name`; returns the `AuthSession=…` pair and the body.
    private func login(_ name: String, _ password: String) throws -> (cookie: String, body: String) {
        let r = try send("POST", "/_session", body: #"{"name":"\#(name)","password":"\#(password)"}"#, auth: .anonymous)
        XCTAssertEqual(r.status, 200, r.text)
        return (String((r.header("Set-Cookie") ?? "").prefix { $0 != ";" }), compact(r))
    }

    func test_CD_175_passwordIsReplacedByAPBKDF2Hash() throws {
        XCTAssertEqual(try send("PUT", "/_users").status, 412, "created at start-up")
        let r = try send("PUT", bobDoc, body: #"{"name":"bob","password":"pw","roles":[],"type":"user"}"#)
        XCTAssertEqual(r.status, 201, r.text)
        let doc = try get(bobDoc)
        XCTAssertNil(doc["password"])
        XCTAssertEqual(doc["password_scheme"]?.stringValue, "pbkdf2")
        XCTAssertEqual(doc["pbkdf2_prf"]?.stringValue, "sha256")
        XCTAssertEqual(doc["iterations"]?.int64Value, 1000)
        XCTAssertEqual(doc["salt"]?.stringValue?.count, 32)
        XCTAssertEqual(doc["derived_key"]?.stringValue?.count, 64)
        // The stored key is PBKDF2-HMAC-SHA256 of the password over the salt text.
        let salt = doc["salt"]?.stringValue ?? ""
        let expected = Crypto.pbkdf2(password: Array("pw".utf8), salt: Array(salt.utf8), iterations: 1000, keyLength: 32,
                                     hash: .sha256).map(Hex.encode)
        XCTAssertEqual(doc["derived_key"]?.stringValue, expected)
        assertError(try send("PUT", "/_users/org.couchdb.user:x", body: #"{"name":"x","password":1,"roles":[],"type":"user"}"#),
                    400, "bad_request")
    }

    func test_CD_176_userLoginBasicAndCookieEndWithAPasswordChange() throws {
        let rev = try createUser("bob", password: "pw", roles: ["staff"])
        try setSecurity(Self.security(memberRoles: ["staff"]))
        XCTAssertEqual(try send("GET", "/db", auth: bob).status, 200)
        assertError(try send("GET", "/db", auth: .basic("bob", "wrong")), 401, "unauthorized", "Name or password is incorrect.")
        assertError(try send("GET", "/", auth: .basic("nobody", "pw")), 401, "unauthorized", "Name or password is incorrect.")

        let (cookie, body) = try login("bob", "pw")
        XCTAssertEqual(body, #"{"ok":true,"name":"bob","roles":["staff"]}"#)
        let whoAmI = json(try send("GET", "/_session", headers: [("Cookie", cookie)], auth: .anonymous))
        XCTAssertEqual(whoAmI["userCtx"]?.serialized(), #"{"name":"bob","roles":["staff"]}"#)
        XCTAssertEqual(whoAmI["info"]?["authenticated"]?.stringValue, "cookie")
        XCTAssertEqual(json(try send("GET", "/_session", auth: bob))["info"]?["authenticated"]?.stringValue, "default")
        XCTAssertEqual(try send("GET", "/db", headers: [("Cookie", cookie)], auth: .anonymous).status, 200)
        // The host-root /_session logs users in too.
        let root = try send("POST", "/_session", body: #"{"name":"bob","password":"pw"}"#, auth: .anonymous, raw: true)
        XCTAssertEqual(root.status, 200, root.text)

        let changed = try send("PUT", bobDoc + "?rev=\(rev)",
                               body: #"{"name":"bob","password":"new-pw","roles":["staff"],"type":"user"}"#)
        XCTAssertEqual(changed.status, 201, changed.text)
        // The old cookie is anonymous now (its key held the old salt); the old password is refused.
        let stale = json(try send("GET", "/_session", headers: [("Cookie", cookie)], auth: .anonymous))
        XCTAssertEqual(stale["userCtx"]?["name"], .null)
        assertError(try send("GET", "/db", headers: [("Cookie", cookie)], auth: .anonymous), 401, "unauthorized")
        assertError(try send("GET", "/db", auth: bob), 401, "unauthorized", "Name or password is incorrect.")
        XCTAssertEqual(try send("GET", "/db", auth: .basic("bob", "new-pw")).status, 200)
        // Deleting the account ends its logins at once.
        let current = try get(bobDoc)["_rev"]?.stringValue ?? ""
        XCTAssertEqual(try send("DELETE", bobDoc + "?rev=\(current)").status, 200)
        assertError(try send("GET", "/db", auth: .basic("bob", "new-pw")), 401, "unauthorized", "Name or password is incorrect.")
    }

    func test_CD_177_usersReadOnlyTheirOwnDocument() throws {
        try createUser("bob", password: "pw")
        try createUser("alice", password: "alice-pw")
        let own = try send("GET", bobDoc, auth: bob)
        XCTAssertEqual(own.status, 200, own.text)
        XCTAssertEqual(json(own)["name"]?.stringValue, "bob")
        assertError(try send("GET", "/_users/org.couchdb.user:alice", auth: bob), 404, "not_found", "missing")
        assertError(try send("GET", "/_users/org.couchdb.user:nobody", auth: bob), 404, "not_found", "missing")
        for path in ["/_users/_all_docs", "/_users/_changes", "/_users", "/_users/_security"] {
            assertError(try send("GET", path, auth: bob), 403, "forbidden")
        }
        assertError(try send("POST", "/_users/_bulk_get", body: #"{"docs":[]}"#, auth: bob), 403, "forbidden")
        assertError(try send("GET", bobDoc, auth: .anonymous), 401, "unauthorized", "You are not authorized to access this db.")
        XCTAssertEqual(try send("GET", "/_users/_all_docs").status, 200, "the server admin reads everything")
    }

    func test_CD_178_builtInRules() throws {
        let rev = try createUser("bob", password: "pw")
        func bobPut(_ body: String, _ path: String? = nil) throws -> TestResponse {
            try send("PUT", path ?? bobDoc + "?rev=\(rev)", body: body, auth: bob)
        }
        assertError(try bobPut(#"{"name":"bob","roles":["boss"],"type":"user"}"#), 403, "forbidden", "Only _admin may edit roles")
        assertError(try send("PUT", "/_users/org.couchdb.user:bobby", body: #"{"name":"bob","roles":[],"type":"user"}"#),
                    403, "forbidden", "Doc ID must be of the form org.couchdb.user:name")
        assertError(try bobPut(#"{"name":"bob","roles":[],"type":"admin"}"#), 403, "forbidden", "doc.type must be user")
        assertError(try send("PUT", "/_users/org.couchdb.user:eve", body: #"{"name":"eve","roles":["_admin"],"type":"user"}"#),
                    403, "forbidden", "No system roles (starting with underscore) in users db.")
        // Renaming trips the id rule first (CouchDB's order; "Usernames can not be changed." follows it).
        assertError(try bobPut(#"{"name":"bobby","roles":[],"type":"user"}"#), 403, "forbidden",
                    "Doc ID must be of the form org.couchdb.user:name")
        assertError(try bobPut(#"{"roles":[],"type":"user"}"#), 403, "forbidden", "doc.name is required")
        assertError(try bobPut(#"{"name":"bob","type":"user"}"#), 403, "forbidden", "doc.roles must exist")
        assertError(try bobPut(#"{"name":"bob","roles":"x","type":"user"}"#), 403, "forbidden", "doc.roles must be an array")
        assertError(try bobPut(#"{"name":"bob","roles":[1],"type":"user"}"#), 403, "forbidden", "doc.roles can only contain strings")
        assertError(try bobPut(#"{"name":"bob","roles":[],"type":"user","derived_key":"00","salt":"00"}"#), 403, "forbidden")
        assertError(try send("PUT", "/_users/org.couchdb.user:a:b", body: #"{"name":"a:b","roles":[],"type":"user"}"#),
                    403, "forbidden")
        assertError(try send("PUT", "/_users/_security", body: "{}"), 403, "forbidden",
                    "You can't edit the security object of the user database.")
        assertError(try send("PUT", "/_users/_security", body: "{}", auth: bob), 403, "forbidden",
                    "You can't edit the security object of the user database.")
        // What bob may do: change his own password (and keep his stored hash on a plain update).
        let changed = try bobPut(#"{"name":"bob","roles":[],"type":"user","password":"pw2","email":"b@x"}"#)
        XCTAssertEqual(changed.status, 201, changed.text)
        XCTAssertEqual(try send("GET", "/_session", auth: .basic("bob", "pw2")).status, 200)
        var doc = try XCTUnwrap(json(try send("GET", bobDoc, auth: .basic("bob", "pw2"))).objectValue)
        doc["email"] = .string("c@x")
        let kept = try send("PUT", bobDoc, body: JSON.object(doc).serialized(), auth: .basic("bob", "pw2"))
        XCTAssertEqual(kept.status, 201, kept.text)
        XCTAssertEqual(try send("GET", "/_session", auth: .basic("bob", "pw2")).status, 200)
        // Deleting: only his own document.
        try createUser("alice", password: "alice-pw")
        let aliceRev = try get("/_users/org.couchdb.user:alice")["_rev"]?.stringValue ?? ""
        assertError(try send("DELETE", "/_users/org.couchdb.user:alice?rev=\(aliceRev)", auth: .basic("bob", "pw2")),
                    403, "forbidden", "Only admins may delete other user docs.")
        let bobRev = json(kept)["rev"]?.stringValue ?? ""
        XCTAssertEqual(try send("DELETE", bobDoc, headers: [("If-Match", "\"\(bobRev)\"")], auth: .basic("bob", "pw2")).status, 200)
    }

    func test_CD_179_anonymousSignUpIsOffByDefault() throws {
        assertError(try send("PUT", "/_users/org.couchdb.user:eve", body: #"{"name":"eve","password":"x","roles":[],"type":"user"}"#,
                             auth: .anonymous), 401, "unauthorized", "You are not authorized to access this db.")
        assertError(try send("POST", "/_users", body: #"{"_id":"org.couchdb.user:eve","name":"eve","roles":[],"type":"user"}"#,
                             auth: .anonymous), 401, "unauthorized")
        XCTAssertEqual(try send("GET", "/_users/org.couchdb.user:eve").status, 404)
    }

    func test_CD_180_replicatedPBKDF2SHA1HashLogsIn() throws {
        // As CouchDB 3.3 writes it: PBKDF2-HMAC-SHA1 over the salt text, no `pbkdf2_prf`; key computed
        // independently (Python's hashlib.pbkdf2_hmac("sha1", b"relax", salt, 10)).
        let doc = #"{"_id":"org.couchdb.user:joe","_rev":"1-\#(Self.hex("a"))","name":"joe","roles":["ops"],"type":"user","password_scheme":"pbkdf2","iterations":10,"salt":"d0b9b9ba2ac8b3f0c5e6a1e06e0a1c3f","derived_key":"c326ac4a2febfff7e7f0adc7889c64a2ddfbcc55"}"#
        let r = try send("POST", "/_users/_bulk_docs", body: #"{"new_edits":false,"docs":[\#(doc)]}"#)
        XCTAssertEqual(compact(r), "[]")
        let (_, body) = try login("joe", "relax")
        XCTAssertEqual(body, #"{"ok":true,"name":"joe","roles":["ops"]}"#)
        assertError(try send("GET", "/_session", auth: .basic("joe", "relaxed")), 401, "unauthorized")
        // The same with pbkdf2_prf sha256 and the "simple" SHA-1 scheme.
        let sha256 = #"{"_id":"org.couchdb.user:kim","_rev":"1-\#(Self.hex("b"))","name":"kim","roles":[],"type":"user","password_scheme":"pbkdf2","pbkdf2_prf":"sha256","iterations":10,"salt":"d0b9b9ba2ac8b3f0c5e6a1e06e0a1c3f","derived_key":"1ab4736cefcd907c6a18ee2e10ef37884fd0e6fccd67d2dc5c4847dd9a0a6277"}"#
        let simpleKey = Hex.encode(Crypto.sha1(Array("relaxsaltsalt".utf8)))
        let simple = #"{"_id":"org.couchdb.user:lee","_rev":"1-\#(Self.hex("c"))","name":"lee","roles":[],"type":"user","password_scheme":"simple","salt":"saltsalt","password_sha":"\#(simpleKey)"}"#
        XCTAssertEqual(compact(try send("POST", "/_users/_bulk_docs", body: #"{"new_edits":false,"docs":[\#(sha256),\#(simple)]}"#)), "[]")
        XCTAssertEqual(try login("kim", "relax").body, #"{"ok":true,"name":"kim","roles":[]}"#)
        XCTAssertEqual(try login("lee", "relax").body, #"{"ok":true,"name":"lee","roles":[]}"#)
    }
}

/// CD-179's configured variant: `couch.usersPublicSignup`.
final class CouchUsersSignupTests: CouchTestCase {
    override var environment: [String: String] {
        ["QUARTET_COUCH_USERS_PUBLIC_SIGNUP": "true", "QUARTET_COUCH_PASSWORD_ITERATIONS": "1000"]
    }

    func test_CD_179_publicSignupCreatesUsersWithoutRoles() throws {
        let path = "/_users/org.couchdb.user:eve"
        assertError(try send("PUT", path, body: #"{"name":"eve","password":"x","roles":["boss"],"type":"user"}"#, auth: .anonymous),
                    403, "forbidden", "Only _admin may set roles")
        let r = try send("PUT", path, body: #"{"name":"eve","password":"x","roles":[],"type":"user"}"#, auth: .anonymous)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(json(try send("GET", "/_session", auth: .basic("eve", "x")))["userCtx"]?["name"]?.stringValue, "eve")
        // Signing up does not open anything else.
        let rev = json(r)["rev"]?.stringValue ?? ""
        assertError(try send("PUT", path + "?rev=\(rev)", body: #"{"name":"eve","roles":[],"type":"user"}"#, auth: .anonymous),
                    403, "forbidden", "You may only update your own user document.")
        assertError(try send("GET", path, auth: .anonymous), 401, "unauthorized")
        assertError(try send("GET", "/db", auth: .basic("eve", "x")), 403, "forbidden")
        assertError(try send("POST", "/_users", body: #"{"_id":"_local/x"}"#, auth: .anonymous), 401, "unauthorized")
        assertError(try send("POST", "/_users", body: #"{"_id":"_design/x"}"#, auth: .anonymous), 401, "unauthorized",
                    "You are not a db or server admin.")
        XCTAssertEqual(try send("GET", "/_users/_local/x").status, 404)
    }
}

/// CD-176's limit: wrong `_users` passwords count against the client address like the admin's (§2.7.2).
final class CouchUsersLoginLimitTests: CouchTestCase {
    override var environment: [String: String] {
        ["QUARTET_ADMIN_MAX_FAILED_LOGINS": "2", "QUARTET_COUCH_PASSWORD_ITERATIONS": "1000"]
    }

    func test_CD_176_wrongUserPasswordsAreLimitedPerAddress() throws {
        try createUser("bob", password: "pw")
        XCTAssertEqual(try send("GET", "/_session", auth: .basic("bob", "pw")).status, 200)
        assertError(try send("GET", "/_session", auth: .basic("bob", "guess1")), 401, "unauthorized")
        assertError(try send("POST", "/_session", body: #"{"name":"nobody","password":"guess2"}"#, auth: .anonymous),
                    401, "unauthorized")
        // The address used up its failures: refused without checking, even the right password.
        let limited = try send("GET", "/_session", auth: .basic("bob", "pw"))
        XCTAssertEqual(limited.status, 429, limited.text)
        XCTAssertNotNil(limited.header("Retry-After"))
    }
}
