import XCTest
import Core
@testable import CouchAPI

/// `_users` accounts (spec §3.10): the stored hash formats CouchDB writes, new PBKDF2 hashes, the built-in
/// document rules, and the `AuthSession` cookie of a user keyed with their salt (§2.7.3).
final class UserAccountTests: XCTestCase {
    private let salt = "d0b9b9ba2ac8b3f0c5e6a1e06e0a1c3f"

    private func account(_ json: String) throws -> UserAccount? {
        guard case .object(let body) = try CouchJSON.parse(json) else { return nil }
        return UserAccount(body: body)
    }

    func testVerifiesCouchDBHashFormats() throws {
        // Keys from Python's hashlib.pbkdf2_hmac over the salt text, 10 iterations.
        let sha1 = try XCTUnwrap(account(#"{"name":"joe","roles":["a",1],"password_scheme":"pbkdf2","iterations":10,"salt":"\#(salt)","derived_key":"c326ac4a2febfff7e7f0adc7889c64a2ddfbcc55"}"#))
        XCTAssertTrue(sha1.verify("relax"))
        XCTAssertFalse(sha1.verify("relax "))
        XCTAssertEqual(sha1.roles, ["a"], "non-string roles are ignored")
        let sha256 = try XCTUnwrap(account(#"{"name":"kim","roles":[],"password_scheme":"pbkdf2","pbkdf2_prf":"sha256","iterations":10,"salt":"\#(salt)","derived_key":"1ab4736cefcd907c6a18ee2e10ef37884fd0e6fccd67d2dc5c4847dd9a0a6277"}"#))
        XCTAssertTrue(sha256.verify("relax"))
        XCTAssertFalse(sha256.verify("Relax"))
        let simple = try XCTUnwrap(account(#"{"name":"lee","roles":[],"password_scheme":"simple","salt":"s","password_sha":"\#(Hex.encode(Crypto.sha1(Array("pws".utf8))))"}"#))
        XCTAssertTrue(simple.verify("pw"))
        XCTAssertFalse(simple.verify("p"))
        XCTAssertEqual(simple.credential?.salt, "s")
    }

    func testUnusableHashesNeverVerify() throws {
        for json in [
            #"{"name":"a","roles":[]}"#,
            #"{"name":"a","password_scheme":"pbkdf2","iterations":10,"derived_key":"00"}"#,
            #"{"name":"a","password_scheme":"pbkdf2","iterations":0,"salt":"s","derived_key":"00"}"#,
            #"{"name":"a","password_scheme":"pbkdf2","iterations":99999999999,"salt":"s","derived_key":"00"}"#,
            #"{"name":"a","password_scheme":"pbkdf2","pbkdf2_prf":"md4","iterations":1,"salt":"s","derived_key":"00"}"#,
            #"{"name":"a","password_scheme":"pbkdf2","iterations":1,"salt":"s","derived_key":"not hex"}"#,
            #"{"name":"a","password_scheme":"bcrypt","salt":"s"}"#,
        ] {
            let parsed = try XCTUnwrap(account(json), json)
            XCTAssertNil(parsed.credential, json)
            XCTAssertFalse(parsed.verify(""), json)
        }
        XCTAssertNil(try account(#"{"name":""}"#))
        XCTAssertNil(try account(#"{"name":1}"#))
    }

    func testNewHashesArePBKDF2SHA256() throws {
        let members = try XCTUnwrap(UserAccount.hashMembers(password: "pw", iterations: 1000))
        XCTAssertEqual(members.map(\.0), ["password_scheme", "pbkdf2_prf", "iterations", "salt", "derived_key"])
        let body = JSONObject([("name", .string("bob"))] + members)
        let parsed = try XCTUnwrap(UserAccount(body: body))
        XCTAssertTrue(parsed.verify("pw"))
        XCTAssertFalse(parsed.verify("pw2"))
        XCTAssertEqual(body["salt"]?.stringValue?.count, 32)
        XCTAssertEqual(body["derived_key"]?.stringValue?.count, 64)
        XCTAssertNotEqual(UserAccount.hashMembers(password: "pw", iterations: 1000)?[3].1, members[3].1, "fresh salt each time")
    }

    func testUserSessionCookieIsKeyedWithTheirSalt() throws {
        // Expected token computed independently (Python hmac/base64) for secret 00…1f, the salt below and
        // T = 0x6B08CA29.
        let secret = (0..<32).map { UInt8($0) }
        let userSalt = "0123456789abcdef0123456789abcdef"
        let token = SessionCookie.token(user: "bob", time: 0x6B08CA29, key: secret + Array(userSalt.utf8))
        XCTAssertEqual(token, "Ym9iOjZCMDhDQTI5OiC8Xt65CSMjT_LwyL0EJv6syW4wwbidoAy5ouFhR8-9")
        let parsed = try XCTUnwrap(SessionCookie.parse(token))
        XCTAssertTrue(SessionCookie.verify(parsed, key: secret + Array(userSalt.utf8)))
        // A new password brings a new salt: the old cookie no longer verifies.
        XCTAssertFalse(SessionCookie.verify(parsed, key: secret + Array("fedcba9876543210fedcba9876543210".utf8)))
    }

    private func rules(_ id: String, _ json: String, deleted: Bool = false, old: String? = nil,
                       caller: Credentials) throws -> JSONObject {
        guard case .object(var body) = try CouchJSON.parse(json) else { throw CouchError.documentNotObject }
        var oldBody: JSONObject?
        if let old, case .object(let object) = try CouchJSON.parse(old) { oldBody = object }
        try UserDocumentRules.apply(id: id, body: &body, deleted: deleted, old: oldBody, caller: caller, iterations: 1000)
        return body
    }

    private func reason(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch { return (error as? CouchError)?.reason }
    }

    func testRulesInCouchDBOrder() throws {
        let admin = Credentials(name: "admin", roles: ["_admin"], method: .basic)
        let bob = Credentials(name: "bob", roles: [], method: .basic)
        let id = "org.couchdb.user:bob"
        XCTAssertEqual(reason { try rules("org.couchdb.user:al", "{}", deleted: true, caller: bob) },
                       "Only admins may delete other user docs.")
        XCTAssertNil(reason { try rules(id, "{}", deleted: true, caller: bob) })
        XCTAssertEqual(reason { try rules(id, #"{"type":"x"}"#, caller: admin) }, "doc.type must be user")
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":""}"#, caller: admin) }, "doc.name is required")
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":"bob"}"#, caller: admin) }, "doc.roles must exist")
        XCTAssertEqual(reason { try rules("org.couchdb.user:bo", #"{"type":"user","name":"bob","roles":[]}"#, caller: admin) },
                       "Doc ID must be of the form org.couchdb.user:name")
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":"bob","roles":[]}"#,
                                          old: #"{"name":"robert"}"#, caller: admin) }, "Usernames can not be changed.")
        let old = #"{"type":"user","name":"bob","roles":["a"],"salt":"s","derived_key":"k"}"#
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":"bob","roles":["a","b"]}"#, old: old, caller: bob) },
                       "Only _admin may edit roles")
        XCTAssertNil(reason { try rules(id, #"{"type":"user","name":"bob","roles":["a"],"salt":"s","derived_key":"k"}"#,
                                        old: old, caller: bob) }, "an unchanged hash may be sent back")
        XCTAssertNotNil(reason { try rules(id, #"{"type":"user","name":"bob","roles":["a"],"salt":"t"}"#, old: old, caller: bob) })
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":"bob","roles":["x"]}"#, caller: bob) },
                       "Only _admin may set roles")
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":"bob","roles":["_admin"]}"#, caller: admin) },
                       "No system roles (starting with underscore) in users db.")
        XCTAssertNotNil(reason { try rules("org.couchdb.user:a:b", #"{"type":"user","name":"a:b","roles":[]}"#, caller: admin) })
        XCTAssertEqual(reason { try rules(id, #"{"type":"user","name":"bob","roles":[],"password":7}"#, caller: admin) },
                       "password must be a string")
        let hashed = try rules(id, #"{"type":"user","name":"bob","roles":[],"password":"pw","password_sha":"x"}"#, caller: admin)
        XCTAssertNil(hashed["password"])
        XCTAssertNil(hashed["password_sha"])
        XCTAssertEqual(hashed["pbkdf2_prf"]?.stringValue, "sha256")
        XCTAssertTrue(UserAccount(body: hashed)?.verify("pw") ?? false)
    }
}
