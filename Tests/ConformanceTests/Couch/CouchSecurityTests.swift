import Foundation
import XCTest
import Core

/// Checklist CD-171…CD-174 and the member part of CD-187: `_security`, members and db admins, and
/// `validate_doc_update` failing closed (spec §2.8, §3.2.8, §3.12).
final class CouchSecurityTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_PASSWORD_ITERATIONS": "1000"] }

    private let bob = Auth.basic("bob", "bob-pw")
    private let alice = Auth.basic("alice", "alice-pw")

    private func users() throws {
        try createUser("bob", password: "bob-pw")
        try createUser("alice", password: "alice-pw")
    }

    func test_CD_171_freshDatabaseHasAnEmptySecurityObject() throws {
        let r = try send("GET", "/db/_security")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "{}\n")
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        assertError(try send("GET", "/nosuch/_security"), 404, "not_found", "Database does not exist.")
        assertError(try send("POST", "/db/_security", body: "{}"), 405, "method_not_allowed")
    }

    func test_CD_172_membersReadAndWriteButOnlyAdminsAdminister() throws {
        try users()
        let seq = try info()["update_seq"]
        try setSecurity(#"{"admins":{"names":[],"roles":[]},"members":{"names":["bob"],"roles":[]},"x":{"kept":1}}"#)
        // Stored as sent; `update_seq` does not move.
        XCTAssertEqual(compact(try send("GET", "/db/_security")),
                       #"{"admins":{"names":[],"roles":[]},"members":{"names":["bob"],"roles":[]},"x":{"kept":1}}"#)
        XCTAssertEqual(try info()["update_seq"], seq)

        let created = try send("PUT", "/db/d1", body: #"{"v":1}"#, auth: bob)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(json(try send("GET", "/db/d1", auth: bob))["v"]?.int64Value, 1)
        XCTAssertEqual(try send("PUT", "/db/_local/l1", body: #"{"v":1}"#, auth: bob).status, 201)
        XCTAssertEqual(try send("GET", "/db/_local/l1", auth: bob).status, 200)
        XCTAssertEqual(try send("GET", "/db", auth: bob).status, 200)
        XCTAssertEqual(try send("GET", "/db/_all_docs", auth: bob).status, 200)
        XCTAssertEqual(try send("GET", "/db/_changes", auth: bob).status, 200)
        XCTAssertEqual(compact(try send("GET", "/db/_security", auth: bob)),
                       compact(try send("GET", "/db/_security")))

        assertError(try send("PUT", "/db/_design/x", body: "{}", auth: bob), 403, "forbidden", "You are not a db or server admin.")
        let bulk = try send("POST", "/db/_bulk_docs", body: #"{"docs":[{"_id":"_design/y"},{"_id":"d2"}]}"#, auth: bob)
        XCTAssertEqual(bulk.status, 201, bulk.text)
        XCTAssertEqual(json(bulk)[0]?.serialized(),
                       #"{"id":"_design/y","error":"forbidden","reason":"You are not a db or server admin."}"#)
        XCTAssertEqual(json(bulk)[1]?["ok"]?.boolValue, true)
        XCTAssertEqual(try send("GET", "/db/_design/y").status, 404)
        assertError(try send("PUT", "/db/_security", body: "{}", auth: bob), 403, "forbidden", "You are not a db or server admin.")
        assertError(try send("PUT", "/db/_revs_limit", body: "5", auth: bob), 403, "forbidden", "You are not a db or server admin.")
        assertError(try send("POST", "/db/_compact", body: "{}", auth: bob), 403, "forbidden", "You are not a db or server admin.")
        assertError(try send("DELETE", "/db", auth: bob), 401, "unauthorized", "You are not a server admin.")

        assertError(try send("GET", "/db/d1", auth: alice), 403, "forbidden", "You are not allowed to access this db.")
        assertError(try send("PUT", "/db/d3", body: "{}", auth: alice), 403, "forbidden", "You are not allowed to access this db.")
        assertError(try send("GET", "/db/d1", auth: .anonymous), 401, "unauthorized", "You are not authorized to access this db.")
        // A database that does not exist is admin-only: bob learns nothing about it.
        assertError(try send("GET", "/nosuch", auth: bob), 403, "forbidden", "You are not allowed to access this db.")
    }

    func test_CD_172_rolesAndDatabaseAdmins() throws {
        try createUser("bob", password: "bob-pw", roles: ["staff"])
        try createUser("carol", password: "carol-pw")
        try setSecurity(#"{"admins":{"names":["carol"],"roles":[]},"members":{"names":[],"roles":["staff"]}}"#)
        // bob is a member through his role.
        XCTAssertEqual(try send("PUT", "/db/d1", body: "{}", auth: bob).status, 201)
        let carol = Auth.basic("carol", "carol-pw")
        // carol administers the database: design documents, _security, _revs_limit, compaction.
        XCTAssertEqual(try send("PUT", "/db/_design/x", body: #"{"views":{}}"#, auth: carol).status, 201)
        XCTAssertEqual(try send("PUT", "/db/_revs_limit", body: "7", auth: carol).status, 200)
        XCTAssertEqual(try send("POST", "/db/_compact", body: "{}", auth: carol).status, 202)
        XCTAssertEqual(try send("PUT", "/db/_security", body: Self.security(members: ["bob"], admins: ["carol"]),
                                auth: carol).status, 200)
        // The changed object applies to the very next request: bob is now a member by name only.
        XCTAssertEqual(try send("GET", "/db/d1", auth: bob).status, 200)
        try setSecurity(Self.security(members: ["carol"]))
        assertError(try send("GET", "/db/d1", auth: bob), 403, "forbidden", "You are not allowed to access this db.")
    }

    func test_CD_173_validationAndEmptyMembers() throws {
        try users()
        assertError(try send("PUT", "/db/_security", body: #"{"members":{"names":"bob"}}"#), 400, "bad_request",
                    "names must be a JSON list of strings")
        assertError(try send("PUT", "/db/_security", body: #"{"members":{"roles":[1]}}"#), 400, "bad_request",
                    "roles must be a JSON list of strings")
        assertError(try send("PUT", "/db/_security", body: #"{"admins":[]}"#), 400, "bad_request",
                    "admins or members must be a JSON list of strings")
        assertError(try send("PUT", "/db/_security", body: "[]"), 400, "bad_request")
        XCTAssertEqual(try send("GET", "/db/_security").text, "{}\n", "nothing stored")
        // Any Content-Type (§2.3); legacy `readers` stands for `members`.
        let plain = try send("PUT", "/db/_security", body: #"{"readers":{"names":["bob"]}}"#, contentType: "text/plain")
        XCTAssertEqual(plain.status, 200, plain.text)
        XCTAssertEqual(try send("GET", "/db", auth: bob).status, 200)
        // Decision §2.8: no members means admin-only.
        try setSecurity(Self.security(admins: ["alice"]))
        assertError(try send("GET", "/db", auth: bob), 403, "forbidden", "You are not allowed to access this db.")
        assertError(try send("GET", "/db", auth: .anonymous), 401, "unauthorized", "You are not authorized to access this db.")
        XCTAssertEqual(try send("GET", "/db", auth: alice).status, 200, "db admins are members")
    }

    func test_CD_174_validateDocUpdateFailsClosedForNonAdmins() throws {
        try users()
        try setSecurity(Self.security(members: ["bob"]))
        XCTAssertEqual(try send("PUT", "/db/before", body: "{}", auth: bob).status, 201)
        let ddocRev = try put("_design/v", #"{"validate_doc_update":"function(newDoc, oldDoc, userCtx) {}"}"#)
        let reason = "validate_doc_update functions are not supported by this server"
        assertError(try send("PUT", "/db/after", body: "{}", auth: bob), 403, "forbidden", reason)
        assertError(try send("POST", "/db", body: "{}", auth: bob), 403, "forbidden", reason)
        let bulk = try send("POST", "/db/_bulk_docs", body: #"{"docs":[{"_id":"b1"}]}"#, auth: bob)
        XCTAssertEqual(compact(bulk), #"[{"id":"b1","error":"forbidden","reason":"\#(reason)"}]"#)
        // Reading is not affected; `_local` documents are outside validation; the admin writes.
        XCTAssertEqual(try send("GET", "/db/before", auth: bob).status, 200)
        XCTAssertEqual(try send("PUT", "/db/_local/x", body: "{}", auth: bob).status, 201)
        XCTAssertEqual(try send("PUT", "/db/after", body: "{}").status, 201)
        XCTAssertEqual(try send("GET", "/db/after", auth: bob).status, 200)
        // Removing the function lifts the refusal at once.
        XCTAssertEqual(try send("DELETE", "/db/_design/v?rev=\(ddocRev)").status, 200)
        XCTAssertEqual(try send("PUT", "/db/later", body: "{}", auth: bob).status, 201)
    }

    func test_CD_187_purgeNeedsADatabaseAdmin() throws {
        try users()
        try setSecurity(Self.security(members: ["bob"], admins: ["alice"]))
        let rev = try put("a", "{}")
        assertError(try send("POST", "/db/_purge", body: #"{"a":["\#(rev)"]}"#, auth: bob), 403, "forbidden",
                    "You are not a db or server admin.")
        XCTAssertEqual(try send("GET", "/db/a").status, 200, "nothing purged")
        let purged = try send("POST", "/db/_purge", body: #"{"a":["\#(rev)"]}"#, auth: alice)
        XCTAssertEqual(purged.status, 201, purged.text)
    }
}

/// CD-173's configured variant: `couch.publicWhenMembersEmpty` restores CouchDB's public databases.
final class CouchPublicDatabaseTests: CouchTestCase {
    override var environment: [String: String] { ["QUARTET_COUCH_PUBLIC_WHEN_MEMBERS_EMPTY": "true"] }

    func test_CD_173_publicWhenMembersEmpty() throws {
        XCTAssertEqual(try send("PUT", "/db/d", body: #"{"v":1}"#).status, 201)
        XCTAssertEqual(try send("GET", "/db/d", auth: .anonymous).status, 200)
        XCTAssertEqual(try send("PUT", "/db/e", body: "{}", auth: .anonymous).status, 201)
        // Administration still needs a db admin: 401 for an anonymous caller.
        assertError(try send("PUT", "/db/_design/x", body: "{}", auth: .anonymous), 401, "unauthorized",
                    "You are not a db or server admin.")
        // Members listed: the database is no longer public.
        try setSecurity(Self.security(members: ["bob"]))
        assertError(try send("GET", "/db/d", auth: .anonymous), 401, "unauthorized", "You are not authorized to access this db.")
    }
}
