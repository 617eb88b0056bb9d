import XCTest
import Core

/// Roles, ACL, CLP, protected fields (spec §5, §11).
final class ParseAccessTests: ParseConformanceCase {
    let master = ParseServer.headers(master: true)

    func setCLP(_ cls: String, _ clp: String, fields: String = "{}") throws {
        let exists = try parse.send("GET", "/parse/schemas/\(cls)", headers: master).status == 200
        try parse.expect(200, exists ? "PUT" : "POST", "/parse/schemas/\(cls)", headers: master,
                         body: #"{"fields":\#(exists ? "{}" : fields),"classLevelPermissions":\#(clp)}"#)
    }

    func addToRole(_ roleId: String, users: [String] = [], roles: [String] = [], remove: Bool = false) throws {
        var parts: [String] = []
        if !users.isEmpty {
            let ptrs = users.map { #"{"__type":"Pointer","className":"_User","objectId":"\#($0)"}"# }.joined(separator: ",")
            parts.append(#""users":{"__op":"\#(remove ? "RemoveRelation" : "AddRelation")","objects":[\#(ptrs)]}"#)
        }
        if !roles.isEmpty {
            let ptrs = roles.map { #"{"__type":"Pointer","className":"_Role","objectId":"\#($0)"}"# }.joined(separator: ",")
            parts.append(#""roles":{"__op":"\#(remove ? "RemoveRelation" : "AddRelation")","objects":[\#(ptrs)]}"#)
        }
        try parse.expect(200, "PUT", "/parse/roles/\(roleId)", headers: master, body: "{" + parts.joined(separator: ",") + "}")
    }

    func role(_ name: String) throws -> String {
        try parse.expect(201, "POST", "/parse/roles", headers: master, body: #"{"name":"\#(name)","ACL":{"*":{"read":true}}}"#)["objectId"]?
            .stringValue ?? ""
    }

    func test_PA_138_roles() throws {
        try parse.expect(201, "POST", "/parse/roles", body: #"{"name":"Admin","ACL":{"*":{"read":true}}}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/roles", body: #"{"name":"NoAcl"}"#), ["code": 111, "error": "ACL is required."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/roles", body: #"{"ACL":{}}"#), ["code": 111, "error": "name is required."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/roles", body: #"{"name":"Admin","ACL":{"*":{"read":true}}}"#),
                       ["code": 137, "error": "A duplicate value for a field with unique values was provided"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/roles", body: #"{"name":"bad/name","ACL":{}}"#)["code"], 139)
        let id = try parse.expect(200, "GET", "/parse/roles")["results"]?[0]?["objectId"]?.stringValue ?? ""
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/roles/\(id)", headers: master, body: #"{"name":"Other"}"#),
                       ["code": 139, "error": "A role's name can only be set before it has been saved."])
    }

    func test_PA_139_role_acl() throws {
        let admin = try role("Admin")
        let (member, mt) = try parse.signUp("member")
        let (_, outsider) = try parse.signUp("outsider")
        try addToRole(admin, users: [member])
        let id = try parse.create("Doc", #"{"ACL":{"role:Admin":{"read":true}}}"#)
        try parse.expect(200, "GET", "/parse/classes/Doc/\(id)", headers: ParseServer.headers(session: mt))
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/classes/Doc/\(id)", headers: ParseServer.headers(session: outsider))["code"], 101)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Doc", headers: ParseServer.headers(session: outsider))["results"], [])
    }

    func test_PA_140_role_hierarchy() throws {
        let mods = try role("Moderators"), admins = try role("Admins")
        let (u, token) = try parse.signUp("boss")
        try addToRole(admins, users: [u])
        try addToRole(mods, roles: [admins])
        let id = try parse.create("Doc", #"{"ACL":{"role:Moderators":{"read":true}}}"#)
        try parse.expect(200, "GET", "/parse/classes/Doc/\(id)", headers: ParseServer.headers(session: token))
        try addToRole(admins, roles: [mods])
        try parse.expect(200, "GET", "/parse/classes/Doc/\(id)", headers: ParseServer.headers(session: token))
        try addToRole(admins, roles: [mods], remove: true)
        try addToRole(mods, roles: [admins], remove: true)
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/classes/Doc/\(id)", headers: ParseServer.headers(session: token))["code"], 101)
    }

    func test_PA_141_owner_only_and_public_read() throws {
        let (owner, ot) = try parse.signUp("owner")
        let (_, other) = try parse.signUp("other")
        let id = try parse.create("Doc", #"{"ACL":{"\#(owner)":{"read":true,"write":true}}}"#, headers: ParseServer.headers(session: ot))
        for h in [ParseServer.headers(session: other), ParseServer.headers()] {
            XCTAssertEqual(try parse.expect(404, "GET", "/parse/classes/Doc/\(id)", headers: h)["code"], 101)
            XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Doc", headers: h)["results"], [])
            XCTAssertEqual(try parse.expect(404, "PUT", "/parse/classes/Doc/\(id)", headers: h, body: #"{"x":1}"#)["code"], 101)
            XCTAssertEqual(try parse.expect(404, "DELETE", "/parse/classes/Doc/\(id)", headers: h)["code"], 101)
        }
        let pub = try parse.create("Doc", #"{"ACL":{"*":{"read":true}}}"#)
        try parse.expect(200, "GET", "/parse/classes/Doc/\(pub)")
        XCTAssertEqual(try parse.expect(404, "PUT", "/parse/classes/Doc/\(pub)", body: #"{"x":1}"#)["code"], 101)
    }

    func test_PA_142_clp_find_by_role() throws {
        let admin = try role("Admin")
        let (m, mt) = try parse.signUp("m")
        let (_, ot) = try parse.signUp("o")
        try addToRole(admin, users: [m])
        try setCLP("C", #"{"find":{"role:Admin":true}}"#)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/C", headers: ParseServer.headers(session: ot)),
                       ["code": 119, "error": "Permission denied for action find on class C."])
        try parse.expect(200, "GET", "/parse/classes/C", headers: ParseServer.headers(session: mt))
    }

    func test_PA_143_requires_authentication() throws {
        try setCLP("C", #"{"get":{"requiresAuthentication":true}}"#)
        let id = try parse.create("C", "{}", headers: master)
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/classes/C/\(id)"),
                       ["code": 101, "error": "Permission denied, user needs to be authenticated."])
        let (_, t) = try parse.signUp("any")
        try parse.expect(200, "GET", "/parse/classes/C/\(id)", headers: ParseServer.headers(session: t))
    }

    func test_PA_144_clp_create_and_add_field() throws {
        try setCLP("C", #"{"create":{}}"#, fields: #"{"known":{"type":"String"}}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/C", body: #"{"known":"x"}"#),
                       ["code": 119, "error": "Permission denied for action create on class C."])
        try setCLP("D", #"{"addField":{}}"#, fields: #"{"known":{"type":"String"}}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/D", body: #"{"fresh":1}"#),
                       ["code": 119, "error": "Permission denied for action addField on class D."])
        try parse.expect(201, "POST", "/parse/classes/D", body: #"{"known":"x"}"#)
    }

    func test_PA_145_clp_count() throws {
        try setCLP("C", #"{"count":{}}"#)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/C?limit=0&count=1"),
                       ["code": 119, "error": "Permission denied for action count on class C."])
    }

    func test_PA_146_read_user_fields() throws {
        let (a, at) = try parse.signUp("a")
        let (b, _) = try parse.signUp("b")
        try setCLP("C", #"{"get":{},"find":{},"readUserFields":["owner"]}"#, fields: #"{"owner":{"type":"Pointer","targetClass":"_User"}}"#)
        let mine = try parse.create("C", #"{"owner":{"__type":"Pointer","className":"_User","objectId":"\#(a)"}}"#, headers: master)
        let theirs = try parse.create("C", #"{"owner":{"__type":"Pointer","className":"_User","objectId":"\#(b)"}}"#, headers: master)
        let list = try parse.expect(200, "GET", "/parse/classes/C", headers: ParseServer.headers(session: at))["results"]?.arrayValue ?? []
        XCTAssertEqual(list.compactMap { $0["objectId"]?.stringValue }, [mine])
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/classes/C/\(theirs)", headers: ParseServer.headers(session: at))["code"], 101)
    }

    func test_PA_147_protected_fields() throws {
        let admin = try role("Admin")
        let (m, mt) = try parse.signUp("m")
        try addToRole(admin, users: [m])
        try setCLP("C", #"{"protectedFields":{"*":["secret"],"role:Admin":[]}}"#, fields: #"{"secret":{"type":"String"}}"#)
        _ = try parse.create("C", #"{"secret":"s","open":1}"#)
        XCTAssertNil(try parse.expect(200, "GET", "/parse/classes/C")["results"]?[0]?["secret"])
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/C", headers: ParseServer.headers(session: mt))["results"]?[0]?["secret"], "s")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/C", headers: master)["results"]?[0]?["secret"], "s")
    }

    func test_PA_148_no_queries_on_protected_fields() throws {
        try setCLP("C", #"{"protectedFields":{"*":["secret"]}}"#, fields: #"{"secret":{"type":"Object"}}"#)
        for query in ["where=" + q(#"{"secret":"x"}"#), "where=" + q(#"{"secret.apiKey":"x"}"#),
                      "where=" + q(#"{"$or":[{"secret":"x"}]}"#), "order=secret"] {
            let j = try parse.expect(400, "GET", "/parse/classes/C?\(query)")
            XCTAssertEqual(j["code"], 119)
            XCTAssertTrue(j["error"]?.stringValue?.hasPrefix("This user is not allowed to query secret") ?? false, "\(j)")
        }
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/C?where=" + q(#"{"secret":"x"}"#)),
                       ["code": 119, "error": "This user is not allowed to query secret on class C"])
    }

    func test_PA_149_invalid_clp() throws {
        try parse.expect(200, "POST", "/parse/schemas/C", headers: master, body: "{}")
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"classLevelPermissions":{"find":{"foo":true}}}"#),
                       ["code": 107, "error": "'foo' is not a valid key for class level permissions"])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"classLevelPermissions":{"frobnicate":{}}}"#),
                       ["code": 107, "error": "frobnicate is not a valid operation for class level permissions"])
    }
}

/// `userField:` entries of protected fields apply to objects whose pointer names the caller (spec §5.6).
final class ParseUserFieldProtectionTests: ParseConformanceCase {
    func test_PA_147_user_field_protected_fields() throws {
        let master = ParseServer.headers(master: true)
        let (owner, ot) = try parse.signUp("owner")
        let (_, other) = try parse.signUp("other")
        try parse.expect(200, "POST", "/parse/schemas/Doc", headers: master, body: """
            {"fields":{"secret":{"type":"String"},"owner":{"type":"Pointer","targetClass":"_User"}},\
            "classLevelPermissions":{"protectedFields":{"*":["secret"],"userField:owner":[]}}}
            """)
        _ = try parse.create("Doc", #"{"secret":"s","owner":{"__type":"Pointer","className":"_User","objectId":"\#(owner)"}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Doc", headers: ParseServer.headers(session: ot))["results"]?[0]?["secret"], "s")
        XCTAssertNil(try parse.expect(200, "GET", "/parse/classes/Doc", headers: ParseServer.headers(session: other))["results"]?[0]?["secret"])
    }
}
