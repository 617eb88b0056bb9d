import XCTest
import Core

/// Every path by which a query reads another class's fields or rows applies that class's protected fields,
/// class-level permissions and ACLs exactly as a direct query of it would (spec §5, §7.6, §7.9): a
/// non-master caller learns nothing through `$select`, `$dontSelect`, `$inQuery`, `$notInQuery`, `include`,
/// `keys`, `$relatedTo`, `order`, `distinct` or an aggregate that it could not read directly; the master key
/// still reads everything.
final class ParseHardeningAccessTests: ParseConformanceCase {
    let master = ParseServer.headers(master: true)

    func results(_ cls: String, _ query: String, headers: [(String, String)] = ParseServer.headers(),
                 file: StaticString = #filePath, line: UInt = #line) throws -> [JSON] {
        try parse.expect(200, "GET", "/parse/classes/\(cls)?\(query)", headers: headers, file: file, line: line)["results"]?
            .arrayValue ?? []
    }

    func w(_ json: String) -> String { "where=" + q(json) }

    func pointer(_ cls: String, _ id: String) -> String { #"{"__type":"Pointer","className":"\#(cls)","objectId":"\#(id)"}"# }

    /// Two users readable by everyone (so that only protected fields hide their emails), with sessions.
    func publicUsers() throws -> (alice: (id: String, token: String), bob: (id: String, token: String)) {
        let alice = try parse.signUp("alice", email: "alice@example.com")
        let bob = try parse.signUp("bob", email: "bob@example.com")
        for (id, _) in [alice, bob] {
            try parse.expect(200, "PUT", "/parse/users/\(id)", headers: master,
                             body: #"{"ACL":{"*":{"read":true},"\#(id)":{"read":true,"write":true}}}"#)
        }
        return ((alice.0, alice.1), (bob.0, bob.1))
    }

    /// `Guess` objects holding candidate values of another class's field.
    func guesses(_ values: [String]) throws {
        for v in values { _ = try parse.create("Guess", #"{"v":"\#(v)"}"#) }
    }

    func values(_ r: [JSON]) -> [String] { r.compactMap { $0["v"]?.stringValue }.sorted() }

    func assertForbidden(_ j: JSON, _ key: String, _ cls: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(j, ["code": 119, "error": .string("This user is not allowed to query \(key) on class \(cls)")],
                       file: file, line: line)
    }

    // MARK: $select, $dontSelect

    func test_hardening_protectedFields_select_and_dontSelect_on_user_email() throws {
        let (alice, _) = try publicUsers()
        try guesses(["alice@example.com", "bob@example.com", "nobody@example.com"])
        let inner = #"{"query":{"className":"_User","where":{}},"key":"email"}"#
        for op in ["$select", "$dontSelect"] {
            let query = "/parse/classes/Guess?" + w(#"{"v":{"\#(op)":\#(inner)}}"#)
            assertForbidden(try parse.expect(400, "GET", query), "email", "_User")
            assertForbidden(try parse.expect(400, "GET", query, headers: ParseServer.headers(session: alice.token)), "email", "_User")
            assertForbidden(try parse.expect(400, "GET", query + "&count=1&limit=0"), "email", "_User")
        }
        // A dotted key and a nested position are refused the same way.
        assertForbidden(try parse.expect(400, "GET", "/parse/classes/Guess?" + w(
            #"{"$or":[{"v":{"$select":{"query":{"className":"_User","where":{}},"key":"email.x"}}}]}"#)), "email.x", "_User")
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$select":\#(inner)}}"#), headers: master)),
                       ["alice@example.com", "bob@example.com"])
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$dontSelect":\#(inner)}}"#), headers: master)),
                       ["nobody@example.com"])
    }

    func test_hardening_protectedFields_select_on_custom_class() throws {
        try parse.expect(200, "POST", "/parse/schemas/Vault", headers: master, body: """
            {"fields":{"pin":{"type":"String"},"label":{"type":"String"}},\
            "classLevelPermissions":{"protectedFields":{"*":["pin"]}}}
            """)
        _ = try parse.create("Vault", #"{"pin":"1234","label":"a"}"#)
        try guesses(["1234", "0000"])
        let sel = #"{"query":{"className":"Vault","where":{}},"key":"pin"}"#
        assertForbidden(try parse.expect(400, "GET", "/parse/classes/Guess?" + w(#"{"v":{"$select":\#(sel)}}"#)), "pin", "Vault")
        assertForbidden(try parse.expect(400, "GET", "/parse/classes/Guess?" + w(#"{"v":{"$dontSelect":\#(sel)}}"#)), "pin", "Vault")
        // An unprotected key of the same class still works for everyone.
        let byLabel = #"{"query":{"className":"Vault","where":{}},"key":"label"}"#
        _ = try parse.create("Guess", #"{"v":"a"}"#)
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$select":\#(byLabel)}}"#))), ["a"])
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$select":\#(sel)}}"#), headers: master)), ["1234"])
    }

    func test_hardening_select_key_authData_is_refused_as_in_a_where() throws {
        let anon = try parse.expect(201, "POST", "/parse/users", body: #"{"authData":{"anonymous":{"id":"anon-secret-1"}}}"#)
        let id = anon["objectId"]?.stringValue ?? ""
        try parse.expect(200, "PUT", "/parse/users/\(id)", headers: master, body: #"{"ACL":{"*":{"read":true}}}"#)
        try guesses(["anon-secret-1"])
        let query = "/parse/classes/Guess?" + w(#"{"v":{"$select":{"query":{"className":"_User","where":{}},"key":"authData.anonymous.id"}}}"#)
        XCTAssertEqual(try parse.expect(400, "GET", query), ["code": 105, "error": "Invalid key name: authData.anonymous.id"])
    }

    func test_hardening_select_reads_only_rows_the_caller_may_read() throws {
        // ACL: a row only the master key reads.
        _ = try parse.create("Hidden", #"{"code":"x1","ACL":{}}"#, headers: master)
        _ = try parse.create("Hidden", #"{"code":"x2"}"#)
        try guesses(["x1", "x2"])
        let sel = #"{"query":{"className":"Hidden","where":{}},"key":"code"}"#
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$select":\#(sel)}}"#))), ["x2"])
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$dontSelect":\#(sel)}}"#))), ["x1"])
        XCTAssertEqual(values(try results("Guess", w(#"{"v":{"$select":\#(sel)}}"#), headers: master)), ["x1", "x2"])
        // CLP: a class clients may not find.
        try parse.expect(200, "POST", "/parse/schemas/Locked", headers: master,
                         body: #"{"fields":{"code":{"type":"String"}},"classLevelPermissions":{"find":{},"get":{"*":true}}}"#)
        _ = try parse.create("Locked", #"{"code":"x1"}"#, headers: master)
        let locked = #"{"v":{"$select":{"query":{"className":"Locked","where":{}},"key":"code"}}}"#
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Guess?" + w(locked)),
                       ["code": 119, "error": "Permission denied for action find on class Locked."])
        XCTAssertEqual(values(try results("Guess", w(locked), headers: master)), ["x1"])
    }

    func test_hardening_select_from_installations_and_other_users_sessions() throws {
        let (alice, bob) = try publicUsers()
        _ = try parse.create("_Installation", #"{"installationId":"inst-1","deviceType":"ios","deviceToken":"tok-1"}"#,
                             headers: master)
        try guesses(["tok-1"])
        let installations = #"{"v":{"$select":{"query":{"className":"_Installation","where":{}},"key":"deviceToken"}}}"#
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Guess?" + w(installations)),
                       ["code": 119, "error": "Clients aren't allowed to perform the find operation on the installation collection."])
        XCTAssertEqual(values(try results("Guess", w(installations), headers: master)), ["tok-1"])
        // Sessions: a user reads their own only, so only their own id is selected.
        let sessions = w(#"{"objectId":{"$select":{"query":{"className":"_Session","where":{}},"key":"user.objectId"}}}"#)
        let seen = try results("_User", sessions, headers: ParseServer.headers(session: alice.token))
        XCTAssertEqual(seen.compactMap { $0["objectId"]?.stringValue }, [alice.id])
        XCTAssertEqual(Set(try results("_User", sessions, headers: master).compactMap { $0["objectId"]?.stringValue }),
                       [alice.id, bob.id])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/_User?" + sessions)["code"], 209)
    }

    // MARK: $inQuery, $notInQuery

    func test_hardening_protectedFields_inQuery_and_notInQuery() throws {
        let (alice, bob) = try publicUsers()
        _ = try parse.create("Post", #"{"n":1,"author":\#(pointer("_User", alice.id))}"#)
        _ = try parse.create("Post", #"{"n":2,"author":\#(pointer("_User", bob.id))}"#)
        for op in ["$inQuery", "$notInQuery"] {
            for inner in [#"{"email":"bob@example.com"}"#, #"{"$or":[{"email":{"$regex":"^b"}}]}"#, #"{"email":{"$exists":true}}"#] {
                let query = "/parse/classes/Post?" + w(#"{"author":{"\#(op)":{"className":"_User","where":\#(inner)}}}"#)
                assertForbidden(try parse.expect(400, "GET", query, headers: ParseServer.headers(session: alice.token)),
                                "email", "_User")
            }
        }
        let byEmail = w(#"{"author":{"$inQuery":{"className":"_User","where":{"email":"bob@example.com"}}}}"#)
        XCTAssertEqual(try results("Post", byEmail, headers: master).map { $0["n"] }, [2])
        // Rows hidden by their ACL are not selected by the inner query.
        let hidden = try parse.create("Owner", #"{"ACL":{}}"#, headers: master)
        _ = try parse.create("Pet", #"{"n":1,"owner":\#(pointer("Owner", hidden))}"#)
        let inner = w(#"{"owner":{"$inQuery":{"className":"Owner","where":{}}}}"#)
        XCTAssertEqual(try results("Pet", inner), [])
        XCTAssertEqual(try results("Pet", inner, headers: master).map { $0["n"] }, [1])
        let outer = w(#"{"owner":{"$notInQuery":{"className":"Owner","where":{}}}}"#)
        XCTAssertEqual(try results("Pet", outer).map { $0["n"] }, [1])
        XCTAssertEqual(try results("Pet", outer, headers: master), [])
    }

    // MARK: include, keys

    func test_hardening_protectedFields_include_and_keys() throws {
        let (alice, bob) = try publicUsers()
        try parse.expect(200, "POST", "/parse/schemas/Vault", headers: master, body: """
            {"fields":{"pin":{"type":"String"}},"classLevelPermissions":{"protectedFields":{"*":["pin"]}}}
            """)
        let vault = try parse.create("Vault", #"{"pin":"1234"}"#)
        _ = try parse.create("Post", #"{"author":\#(pointer("_User", bob.id)),"vault":\#(pointer("Vault", vault))}"#)
        let asAlice = ParseServer.headers(session: alice.token)
        for query in ["include=author,vault", "include=*", "keys=author.email,vault.pin", "includeAll=true"] {
            let r = try XCTUnwrap(try results("Post", query, headers: asAlice).first, query)
            XCTAssertEqual(r["author"]?["__type"], "Object", query)
            XCTAssertNil(r["author"]?["email"], query)
            XCTAssertEqual(r["vault"]?["__type"], "Object", query)
            XCTAssertNil(r["vault"]?["pin"], query)
            let m = try XCTUnwrap(try results("Post", query, headers: master).first, query)
            XCTAssertEqual(m["author"]?["email"], "bob@example.com", query)
            XCTAssertEqual(m["vault"]?["pin"], "1234", query)
        }
        // `keys` on the class itself.
        let users = try results("_User", "keys=email,username", headers: asAlice)
        XCTAssertEqual(users.first { $0["objectId"]?.stringValue == bob.id }?["email"], nil)
        XCTAssertEqual(users.first { $0["objectId"]?.stringValue == alice.id }?["email"], "alice@example.com")
        XCTAssertNil(try results("Vault", "keys=pin").first?["pin"])
        // Include drops targets the caller may not get: ACL, and a class whose `get` is refused.
        try parse.expect(200, "POST", "/parse/schemas/NoGet", headers: master, body: #"{"classLevelPermissions":{"get":{},"find":{}}}"#)
        let noGet = try parse.create("NoGet", #"{"x":1}"#, headers: master)
        let private_ = try parse.create("Target", #"{"x":1,"ACL":{}}"#, headers: master)
        _ = try parse.create("Holder", #"{"a":\#(pointer("NoGet", noGet)),"b":\#(pointer("Target", private_))}"#)
        let held = try XCTUnwrap(try results("Holder", "include=a,b").first)
        XCTAssertNil(held["a"]); XCTAssertNil(held["b"])
        let asMaster = try XCTUnwrap(try results("Holder", "include=a,b", headers: master).first)
        XCTAssertEqual(asMaster["a"]?["x"], 1); XCTAssertEqual(asMaster["b"]?["x"], 1)
    }

    // MARK: $relatedTo

    func test_hardening_protectedFields_relatedTo() throws {
        let (alice, bob) = try publicUsers()
        try parse.expect(200, "POST", "/parse/schemas/Team", headers: master, body: """
            {"fields":{"members":{"type":"Relation","targetClass":"_User"}},\
            "classLevelPermissions":{"protectedFields":{"*":["members"]}}}
            """)
        let team = try parse.create("Team", #"{"members":{"__op":"AddRelation","objects":[\#(pointer("_User", bob.id))]}}"#)
        let related = w(#"{"$relatedTo":{"object":\#(pointer("Team", team)),"key":"members"}}"#)
        assertForbidden(try parse.expect(400, "GET", "/parse/classes/_User?" + related,
                                         headers: ParseServer.headers(session: alice.token)), "members", "Team")
        assertForbidden(try parse.expect(400, "GET", "/parse/classes/Team?redirectClassNameForKey=members&" + related),
                        "members", "Team")
        XCTAssertEqual(try results("_User", related, headers: master).map { $0["objectId"]?.stringValue }, [bob.id])
    }

    func test_hardening_relatedTo_owner_needs_get_permission() throws {
        let (alice, bob) = try publicUsers()
        // The owner class refuses `get` to clients: its relations disclose nothing.
        try parse.expect(200, "POST", "/parse/schemas/Club", headers: master, body: """
            {"fields":{"members":{"type":"Relation","targetClass":"_User"}},"classLevelPermissions":{"get":{},"find":{}}}
            """)
        let club = try parse.create("Club", #"{"members":{"__op":"AddRelation","objects":[\#(pointer("_User", bob.id))]}}"#,
                                    headers: master)
        let related = w(#"{"$relatedTo":{"object":\#(pointer("Club", club)),"key":"members"}}"#)
        XCTAssertEqual(try results("_User", related, headers: ParseServer.headers(session: alice.token)), [])
        XCTAssertEqual(try results("_User", related, headers: master).map { $0["objectId"]?.stringValue }, [bob.id])
        // `get` limited to pointer fields: only owners that point to the caller disclose their relation.
        try parse.expect(200, "POST", "/parse/schemas/Group", headers: master, body: """
            {"fields":{"members":{"type":"Relation","targetClass":"_User"},"owner":{"type":"Pointer","targetClass":"_User"}},\
            "classLevelPermissions":{"get":{"pointerFields":["owner"]},"find":{"pointerFields":["owner"]}}}
            """)
        let group = try parse.create("Group", """
            {"owner":\(pointer("_User", bob.id)),"members":{"__op":"AddRelation","objects":[\(pointer("_User", alice.id))]}}
            """, headers: master)
        let groupMembers = w(#"{"$relatedTo":{"object":\#(pointer("Group", group)),"key":"members"}}"#)
        XCTAssertEqual(try results("_User", groupMembers, headers: ParseServer.headers(session: alice.token)), [])
        XCTAssertEqual(try results("_User", groupMembers, headers: ParseServer.headers(session: bob.token))
            .map { $0["objectId"]?.stringValue }, [alice.id])
    }

    // MARK: order, distinct, aggregate

    func test_hardening_protectedFields_order() throws {
        let (alice, bob) = try publicUsers()
        for order in ["email", "-email", "email.x", "username,email"] {
            assertForbidden(try parse.expect(400, "GET", "/parse/classes/_User?order=\(order)",
                                             headers: ParseServer.headers(session: alice.token)),
                            order.hasPrefix("username") ? "email" : order.replacingOccurrences(of: "-", with: ""), "_User")
        }
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/_User?order=authData.anonymous.id"),
                       ["code": 105, "error": "Invalid key name: authData.anonymous.id"])
        XCTAssertEqual(try results("_User", "order=-email", headers: master).map { $0["objectId"]?.stringValue },
                       [bob.id, alice.id])
        // Sorting by a field of a pointed-to object reads nothing of it: the order is the creation order
        // whichever way the emails sort.
        _ = try parse.create("Post", #"{"n":1,"author":\#(pointer("_User", bob.id))}"#)
        _ = try parse.create("Post", #"{"n":2,"author":\#(pointer("_User", alice.id))}"#)
        for order in ["author.email", "-author.email"] {
            XCTAssertEqual(try results("Post", "order=\(order)").map { $0["n"] }, [1, 2], order)
        }
    }

    func test_hardening_protectedFields_distinct_and_aggregate_need_the_master_key() throws {
        _ = try publicUsers()
        let group = q(#"[{"$group":{"_id":"$email"}}]"#)
        for target in ["/parse/aggregate/_User?distinct=email", "/parse/aggregate/_User?pipeline=\(group)",
                       "/parse/aggregate/_User?distinct=email&where=" + q(#"{"email":{"$regex":"^b"}}"#)] {
            XCTAssertEqual(try parse.expect(403, "GET", target), ["error": "unauthorized: master key is required"], target)
        }
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/aggregate/_User?distinct=email", headers: master)["results"],
                       ["alice@example.com", "bob@example.com"])
        let grouped = try parse.expect(200, "GET", "/parse/aggregate/_User?pipeline=\(group)", headers: master)["results"]?
            .arrayValue?.compactMap { $0["objectId"]?.stringValue }.sorted()
        XCTAssertEqual(grouped, ["alice@example.com", "bob@example.com"])
        let filtered = "/parse/aggregate/_User?distinct=email&where=" + q(#"{"email":{"$regex":"^b"}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", filtered, headers: master)["results"], ["bob@example.com"])
    }
}
