import XCTest
import Core

/// Users, login, sessions (spec §9, §10).
final class ParseUserTests: ParseConformanceCase {
    func test_PA_102_signup_shape() throws {
        let r = try parse.send("POST", "/parse/users", body: #"{"password":"secret","username":"cook"}"#)
        XCTAssertEqual(r.status, 201)
        let j = try JSONParser.parse(r.body)
        XCTAssertEqual(Set(j.objectValue?.keys ?? []), ["objectId", "createdAt", "sessionToken"])
        let id = j["objectId"]?.stringValue ?? ""
        XCTAssertTrue(r.header("Location")?.hasSuffix("/parse/users/\(id)") ?? false)
        XCTAssertNotNil(j["sessionToken"]?.stringValue?.range(of: "^r:[0-9a-f]{32}$", options: .regularExpression))
    }

    func test_PA_103_signup_validation() throws {
        for body in [#"{"password":"p"}"#, #"{"username":"","password":"p"}"#] {
            XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: body), ["code": 200, "error": "bad or missing username"])
        }
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"u"}"#),
                       ["code": 201, "error": "password is required"])
    }

    func test_PA_104_uniqueness() throws {
        _ = try parse.signUp("cook", email: "a@b.com")
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"Cook","password":"p"}"#),
                       ["code": 202, "error": "Account already exists for this username."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"x","password":"p","email":"nope"}"#),
                       ["code": 125, "error": "Email address format is invalid."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"y","password":"p","email":"A@B.com"}"#),
                       ["code": 203, "error": "Account already exists for this email address."])
    }

    func test_PA_105_concurrent_signups() throws {
        let p = parse!
        let box = StatusBox()
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            let r = try? p.send("POST", "/parse/users", body: #"{"username":"race","password":"secret"}"#)
            box.add(r?.status ?? 0)
        }
        XCTAssertEqual(box.values.filter { $0 == 201 }.count, 1)
        XCTAssertEqual(box.values.filter { $0 == 400 }.count, 19)
    }

    func test_PA_106_private_by_default() throws {
        let (id, _) = try parse.signUp("private")
        let (_, other) = try parse.signUp("other")
        let me = try parse.expect(200, "GET", "/parse/users/\(id)", headers: ParseServer.headers(master: true))
        XCTAssertEqual(me["ACL"], [.init(stringLiteral: id): ["read": true, "write": true]].asJSON)
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/users/\(id)", headers: ParseServer.headers(session: other))["code"], 101)
        let list = try parse.expect(200, "GET", "/parse/users", headers: ParseServer.headers(session: other))["results"]?.arrayValue ?? []
        XCTAssertFalse(list.contains { $0["objectId"]?.stringValue == id })
    }

    func test_PA_107_bcrypt_hashes() throws {
        let (id, _) = try parse.signUp("hashme")
        // The hash is never served; its format is checked through verification of imported hashes instead.
        XCTAssertFalse(try parse.send("GET", "/parse/users/\(id)", headers: ParseServer.headers(master: true)).text.contains("$2b$"))
    }

    func test_PA_108_password_rules() throws {
        let long = String(repeating: "a", count: 73)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"l","password":"\#(long)"}"#)["code"], 142)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"username":"n","password":"a\u0000b"}"#)["code"], 142)
        XCTAssertEqual(try parse.masterCount("_User"), 0)
    }

    func test_PA_109_login_shape() throws {
        _ = try parse.signUp("cook")
        let j = try parse.expect(200, "POST", "/parse/login", headers: ParseServer.headers([("X-Parse-Installation-Id", "inst-1")]),
                                 body: #"{"password":"secret","username":"cook"}"#)
        for k in ["objectId", "createdAt", "updatedAt", "username", "ACL", "sessionToken"] { XCTAssertNotNil(j[k], k) }
        XCTAssertNil(j["password"])
        let sessions = try parse.expect(200, "GET", "/parse/sessions", headers: ParseServer.headers(master: true))["results"]?.arrayValue ?? []
        XCTAssertTrue(sessions.contains { $0["createdWith"] == ["action": "login", "authProvider": "password"] && $0["installationId"] == "inst-1" })
    }

    func test_PA_110_login_variants() throws {
        _ = try parse.signUp("cook", email: "cook@example.com")
        XCTAssertNotNil(try parse.expect(200, "GET", "/parse/login?username=cook&password=secret")["sessionToken"])
        XCTAssertNotNil(try parse.expect(200, "POST", "/parse/login", body: #"{"_method":"GET","username":"cook","password":"secret"}"#)["sessionToken"])
        XCTAssertNotNil(try parse.expect(200, "POST", "/parse/login", body: #"{"username":"cook@example.com","password":"secret"}"#)["sessionToken"])
    }

    func test_PA_111_wrong_credentials() throws {
        _ = try parse.signUp("cook")
        for body in [#"{"username":"cook","password":"wrong"}"#, #"{"username":"nobody","password":"secret"}"#] {
            let r = try parse.send("POST", "/parse/login", body: body)
            XCTAssertEqual(r.status, 404)
            XCTAssertEqual(r.text, #"{"code":101,"error":"Invalid username/password."}"#)
        }
    }

    func test_PA_112_operator_injection_in_login() throws {
        _ = try parse.signUp("asdf")
        let r = try parse.send("POST", "/parse/login", body: #"{"_method":"GET","username":{"$regex":"^asd"},"password":"zxcv"}"#)
        XCTAssertEqual(r.status, 404)
        XCTAssertEqual(r.text, #"{"code":101,"error":"Invalid username/password."}"#)
    }

    func test_PA_113_login_missing_fields() throws {
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/login?password=x"), ["code": 200, "error": "username/email is required."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/login?username=yolo"), ["code": 201, "error": "password is required."])
    }

    func test_PA_114_empty_acl_cannot_login() throws {
        let (id, _) = try parse.signUp("locked")
        try parse.expect(200, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(master: true), body: #"{"ACL":{}}"#)
        XCTAssertEqual(try parse.expect(404, "POST", "/parse/login", body: #"{"username":"locked","password":"secret"}"#)["code"], 101)
    }

    func test_PA_115_logout() throws {
        let (_, token) = try parse.signUp("cook")
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/logout", headers: ParseServer.headers(session: token)), [:])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/users/me", headers: ParseServer.headers(session: token))["code"], 209)
        XCTAssertEqual(try parse.expect(200, "POST", "/parse/logout"), [:])
    }

    func test_PA_116_users_me() throws {
        let (_, token) = try parse.signUp("cook")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/users/me", headers: ParseServer.headers(session: token))["sessionToken"]?.stringValue, token)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/users/me"), ["code": 209, "error": "Invalid session token"])
    }

    func test_PA_117_own_and_other_profiles() throws {
        let (id, token) = try parse.signUp("me", email: "me@example.com")
        let own = try parse.expect(200, "GET", "/parse/users/\(id)", headers: ParseServer.headers(session: token))
        XCTAssertEqual(own["email"], "me@example.com")
        XCTAssertEqual(own["sessionToken"]?.stringValue, token)
        let (otherId, _) = try parse.signUp("pub", email: "pub@example.com")
        try parse.expect(200, "PUT", "/parse/users/\(otherId)", headers: ParseServer.headers(master: true), body: #"{"ACL":{"*":{"read":true}}}"#)
        let seen = try parse.expect(200, "GET", "/parse/users/\(otherId)", headers: ParseServer.headers(session: token))
        XCTAssertNil(seen["email"]); XCTAssertNil(seen["authData"]); XCTAssertNil(seen["sessionToken"])
    }

    func test_PA_118_update_needs_auth() throws {
        let (id, _) = try parse.signUp("target")
        let (_, other) = try parse.signUp("other")
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/users/\(id)", body: #"{"x":1}"#),
                       ["code": 206, "error": .string("Cannot modify user \(id).")])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: other), body: #"{"x":1}"#),
                       ["code": 206, "error": "Insufficient auth."])
    }

    func test_PA_119_delete_user() throws {
        let (id, token) = try parse.signUp("gone")
        XCTAssertEqual(try parse.expect(400, "DELETE", "/parse/users/\(id)"), ["code": 206, "error": "Insufficient auth to delete user"])
        XCTAssertEqual(try parse.expect(200, "DELETE", "/parse/users/\(id)", headers: ParseServer.headers(session: token)), [:])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Anything", headers: ParseServer.headers(session: token))["code"], 209)
    }

    func test_PA_120_email_verified_is_server_only() throws {
        let (id, token) = try parse.signUp("v")
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token),
                                        body: #"{"emailVerified":true}"#),
                       ["code": 119, "error": "Clients aren't allowed to manually update email verification."])
        try parse.expect(200, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(master: true), body: #"{"emailVerified":true}"#)
    }

    func test_PA_121_password_change_rotates_sessions() throws {
        let (id, token) = try parse.signUp("pw")
        let j = try parse.expect(200, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token), body: #"{"password":"newpass"}"#)
        XCTAssertNotNil(j["updatedAt"])
        let newToken = try XCTUnwrap(j["sessionToken"]?.stringValue)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/users/me", headers: ParseServer.headers(session: token))["code"], 209)
        try parse.expect(200, "GET", "/parse/users/me", headers: ParseServer.headers(session: newToken))
        try parse.expect(200, "POST", "/parse/login", body: #"{"username":"pw","password":"newpass"}"#)
    }

    func test_PA_122_owner_acl_forced() throws {
        let (id, token) = try parse.signUp("self")
        try parse.expect(200, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token), body: #"{"ACL":{}}"#)
        let j = try parse.expect(200, "GET", "/parse/users/\(id)", headers: ParseServer.headers(session: token))
        XCTAssertEqual(j["ACL"]?[id], ["read": true, "write": true])
    }

    func test_PA_123_anonymous_users() throws {
        let body = #"{"authData":{"anonymous":{"id":"6a2b9a0e-0d51-4b0e-9a4c-7d1f0d0e8f11"}}}"#
        let r = try parse.send("POST", "/parse/users", body: body)
        XCTAssertEqual(r.status, 201)
        let j = try JSONParser.parse(r.body)
        XCTAssertEqual(Set(j.objectValue?.keys ?? []), ["objectId", "createdAt", "sessionToken", "username"])
        XCTAssertEqual(j["username"]?.stringValue?.count, 25)
        let again = try parse.expect(200, "POST", "/parse/users", body: body)
        XCTAssertEqual(again["objectId"], j["objectId"])
        XCTAssertNotEqual(again["sessionToken"], j["sessionToken"])
        let s = try parse.expect(200, "GET", "/parse/sessions/me", headers: ParseServer.headers(session: again["sessionToken"]?.stringValue))
        XCTAssertEqual(s["createdWith"]?["authProvider"], "anonymous")
    }

    func test_PA_124_unsupported_auth() throws {
        for ad in [#"{"facebook":{"id":"1","access_token":"x"}}"#, "null", #"{"anonymous":{}}"#] {
            XCTAssertEqual(try parse.expect(400, "POST", "/parse/users", body: #"{"authData":\#(ad)}"#),
                           ["code": 252, "error": "This authentication method is unsupported."])
        }
    }

    func test_PA_125_link_and_unlink() throws {
        _ = try parse.expect(201, "POST", "/parse/users", body: #"{"authData":{"anonymous":{"id":"taken"}}}"#)
        let (id, token) = try parse.signUp("linker")
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token),
                                        body: #"{"authData":{"anonymous":{"id":"taken"}}}"#),
                       ["code": 208, "error": "this auth is already used"])
        try parse.expect(200, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token),
                         body: #"{"authData":{"anonymous":{"id":"mine"}}}"#)
        try parse.expect(200, "PUT", "/parse/users/\(id)", headers: ParseServer.headers(session: token), body: #"{"authData":{"anonymous":null}}"#)
        XCTAssertNil(try parse.expect(200, "GET", "/parse/users/me", headers: ParseServer.headers(session: token))["authData"])
    }

    func test_PA_126_verify_password() throws {
        _ = try parse.signUp("cook")
        let before = try parse.expect(200, "GET", "/parse/sessions", headers: ParseServer.headers(master: true))["results"]?.arrayValue?.count
        let j = try parse.expect(200, "GET", "/parse/verifyPassword?username=cook&password=secret")
        XCTAssertEqual(j["username"], "cook")
        XCTAssertNil(j["sessionToken"])
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/sessions", headers: ParseServer.headers(master: true))["results"]?.arrayValue?.count, before)
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/verifyPassword?username=cook&password=bad")["code"], 101)
    }

    func test_PA_127_login_as() throws {
        let (id, _) = try parse.signUp("target")
        let j = try parse.expect(200, "POST", "/parse/loginAs", headers: ParseServer.headers(master: true), body: #"{"userId":"\#(id)"}"#)
        let token = try XCTUnwrap(j["sessionToken"]?.stringValue)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/sessions/me", headers: ParseServer.headers(session: token))["createdWith"],
                       ["action": "login", "authProvider": "masterkey"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/loginAs", body: #"{"userId":"\#(id)"}"#), ["code": 119, "error": "master key is required"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/loginAs", headers: ParseServer.headers(master: true), body: "{}"),
                       ["code": 162, "error": "userId must not be empty, null, or undefined"])
        XCTAssertEqual(try parse.expect(404, "POST", "/parse/loginAs", headers: ParseServer.headers(master: true), body: #"{"userId":"nope"}"#),
                       ["code": 101, "error": "user not found"])
    }

    func test_PA_128_email_flows_unconfigured() throws {
        let msg: JSON = ["code": 1, "error": "An appName, publicServerURL, and emailAdapter are required for password reset and email verification functionality."]
        XCTAssertEqual(try parse.expect(500, "POST", "/parse/requestPasswordReset", body: #"{"email":"a@b.c"}"#), msg)
        XCTAssertEqual(try parse.expect(500, "POST", "/parse/verificationEmailRequest", body: "{}"), msg)
    }

    func test_PA_132_emails_hidden_from_others() throws {
        let (a, _) = try parse.signUp("a", email: "a@example.com")
        let (_, tb) = try parse.signUp("b", email: "b@example.com")
        try parse.expect(200, "PUT", "/parse/users/\(a)", headers: ParseServer.headers(master: true), body: #"{"ACL":{"*":{"read":true}}}"#)
        let all = try parse.expect(200, "GET", "/parse/users", headers: ParseServer.headers(master: true))["results"]?.arrayValue ?? []
        XCTAssertTrue(all.allSatisfy { $0["email"] != nil })
        let seen = try parse.expect(200, "GET", "/parse/users", headers: ParseServer.headers(session: tb))["results"]?.arrayValue ?? []
        XCTAssertEqual(seen.first { $0["objectId"]?.stringValue == a }?["email"], nil)
        XCTAssertEqual(seen.first { $0["username"] == "b" }?["email"], "b@example.com")
    }

    func test_PA_133_sessions_me() throws {
        let (_, token) = try parse.signUp("s")
        let j = try parse.expect(200, "GET", "/parse/sessions/me", headers: ParseServer.headers(session: token))
        XCTAssertEqual(j["sessionToken"]?.stringValue, token)
        XCTAssertNotNil(j["user"]); XCTAssertNotNil(j["createdWith"]); XCTAssertNotNil(j["expiresAt"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/sessions/me"), ["code": 209, "error": "Session token required."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/sessions/me", headers: ParseServer.headers(session: "r:nope")),
                       ["code": 209, "error": "Session token not found."])
    }

    func test_PA_134_sessions_list() throws {
        let (_, token) = try parse.signUp("s")
        _ = try parse.expect(200, "POST", "/parse/login", body: #"{"username":"s","password":"secret"}"#)
        _ = try parse.signUp("t")
        let list = try parse.expect(200, "GET", "/parse/sessions", headers: ParseServer.headers(session: token))["results"]?.arrayValue ?? []
        XCTAssertEqual(list.count, 2)
        XCTAssertEqual(list.filter { $0["sessionToken"] != nil }.count, 1)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/sessions"), ["code": 209, "error": "Invalid session token"])
    }

    func test_PA_135_other_users_sessions() throws {
        let (_, a) = try parse.signUp("a")
        let (_, b) = try parse.signUp("b")
        let aSession = try parse.expect(200, "GET", "/parse/sessions/me", headers: ParseServer.headers(session: a))["objectId"]?.stringValue ?? ""
        XCTAssertEqual(try parse.expect(404, "PUT", "/parse/sessions/\(aSession)", headers: ParseServer.headers(session: b), body: #"{"x":1}"#)["code"], 101)
        XCTAssertEqual(try parse.expect(404, "DELETE", "/parse/sessions/\(aSession)", headers: ParseServer.headers(session: b))["code"], 101)
        try parse.expect(200, "GET", "/parse/users/me", headers: ParseServer.headers(session: a))
    }

    func test_PA_136_session_updates() throws {
        let (_, a) = try parse.signUp("a")
        let (other, _) = try parse.signUp("b")
        let id = try parse.expect(200, "GET", "/parse/sessions/me", headers: ParseServer.headers(session: a))["objectId"]?.stringValue ?? ""
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/sessions/\(id)", headers: ParseServer.headers(session: a),
                                        body: #"{"user":{"__type":"Pointer","className":"_User","objectId":"\#(other)"}}"#)["code"], 105)
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/sessions/\(id)", headers: ParseServer.headers(session: a), body: #"{"ACL":{}}"#),
                       ["code": 105, "error": "Cannot set ACL on a Session."])
        XCTAssertEqual(try parse.expect(200, "DELETE", "/parse/sessions/\(id)", headers: ParseServer.headers(session: a)), [:])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/users/me", headers: ParseServer.headers(session: a))["code"], 209)
    }

    func test_PA_137_create_session() throws {
        let (_, a) = try parse.signUp("a")
        let j = try parse.expect(201, "POST", "/parse/sessions", headers: ParseServer.headers(session: a), body: "{}")
        XCTAssertNotNil(j["sessionToken"])
        XCTAssertEqual(j["createdWith"]?["action"], "create")
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/sessions", body: "{}"), ["code": 209, "error": "Session token required."])
    }
}

extension Dictionary where Key == String, Value == JSON {
    var asJSON: JSON { .object(JSONObject(map { ($0.key, $0.value) })) }
}
