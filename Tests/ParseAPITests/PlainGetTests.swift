import XCTest
import Core
@testable import ParseAPI

/// A GET by id without query parameters (`ClassesRoutes.plainGet`, one statement) answers exactly what the
/// general query path answers. `excludeKeys` naming a field no object has sends the same request through the
/// general path, so each case compares the two.
final class PlainGetTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws { server = try ParseTestServer() }
    override func tearDown() { server.stop() }

    let master = ParseTestServer.headers(master: true)

    /// The status and body of the plain GET, after checking that the general path gives the same.
    @discardableResult
    func get(_ cls: String, _ id: String, headers: [(String, String)] = ParseTestServer.headers(),
             file: StaticString = #filePath, line: UInt = #line) throws -> (Int, JSON) {
        let plain = try server.request("GET", "/parse/classes/\(cls)/\(id)", headers: headers)
        let general = try server.request("GET", "/parse/classes/\(cls)/\(id)?excludeKeys=zzNotAField", headers: headers)
        XCTAssertEqual(plain.status, general.status, "\(plain.text) vs \(general.text)", file: file, line: line)
        let plainJSON = (try? JSONParser.parse(plain.body)) ?? .null
        XCTAssertEqual(plainJSON, (try? JSONParser.parse(general.body)) ?? .null, file: file, line: line)
        return (plain.status, plainJSON)
    }

    func create(_ cls: String, _ body: String, headers: [(String, String)]? = nil) throws -> String {
        let created = try server.json("POST", "/parse/classes/\(cls)", headers: headers ?? master, body: body, status: 201)
        return try XCTUnwrap(created["objectId"]?.stringValue)
    }

    func signUp(_ name: String) throws -> (id: String, token: String) {
        let r = try server.json("POST", "/parse/users", body: #"{"username":"\#(name)","password":"pw-\#(name)"}"#, status: 201)
        return (try XCTUnwrap(r["objectId"]?.stringValue), try XCTUnwrap(r["sessionToken"]?.stringValue))
    }

    func testEveryKindOfValueRendersAsOnTheGeneralPath() throws {
        _ = try server.json("POST", "/parse/schemas/Dish", headers: master, body: """
            {"fields":{"photo":{"type":"File"},"tags":{"type":"Relation","targetClass":"Tag"}}}
            """, status: 200)
        let id = try create("Dish", """
            {"name":"Omelette","servings":2,"price":9.5,"ok":true,"when":{"__type":"Date","iso":"2023-11-14T22:13:20.123Z"},\
            "photo":{"__type":"File","name":"abc_photo.jpg"},"where":{"__type":"GeoPoint","latitude":1.5,"longitude":2.5},\
            "nested":{"a":[1,{"b":null}]},"list":["x","y"]}
            """)
        let (status, body) = try get("Dish", id)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["objectId"]?.stringValue, id)
        XCTAssertEqual(body["name"], "Omelette")
        XCTAssertNotNil(body["createdAt"]?.stringValue)
        XCTAssertEqual(body["photo"]?["url"]?.stringValue?.hasSuffix("/files/\(ParseTestServer.appId)/abc_photo.jpg"), true)
        XCTAssertEqual(body["tags"], ["__type": "Relation", "className": "Tag"])
        try get("Dish", id, headers: master)
    }

    func testACLDecidesWhoReads() throws {
        let (userId, token) = try signUp("reader")
        let (_, otherToken) = try signUp("stranger")
        let id = try create("Note", #"{"text":"hi","ACL":{"\#(userId)":{"read":true}}}"#)
        XCTAssertEqual(try get("Note", id).0, 404)
        XCTAssertEqual(try get("Note", id).1["code"], 101)
        XCTAssertEqual(try get("Note", id, headers: ParseTestServer.headers(session: otherToken)).0, 404)
        XCTAssertEqual(try get("Note", id, headers: ParseTestServer.headers(session: token)).1["text"], "hi")
        XCTAssertEqual(try get("Note", id, headers: master).1["ACL"], [userId: ["read": true]])
        let nobody = try create("Note", #"{"text":"locked","ACL":{}}"#)
        XCTAssertEqual(try get("Note", nobody, headers: ParseTestServer.headers(session: token)).0, 404)
        XCTAssertEqual(try get("Note", nobody, headers: master).1["text"], "locked")
    }

    func testClassLevelPermissionsAndProtectedFields() throws {
        let (ownerId, ownerToken) = try signUp("owner")
        let (_, otherToken) = try signUp("other")
        _ = try server.json("POST", "/parse/schemas/Doc", headers: master, body: """
            {"fields":{"secret":{"type":"String"},"owner":{"type":"Pointer","targetClass":"_User"}},\
            "classLevelPermissions":{"get":{"*":true},"find":{"*":true},"create":{"*":true},\
            "protectedFields":{"*":["secret"],"userField:owner":[]}}}
            """, status: 200)
        let id = try create("Doc", #"{"secret":"s","title":"t","owner":{"__type":"Pointer","className":"_User","objectId":"\#(ownerId)"}}"#)
        XCTAssertNil(try get("Doc", id).1["secret"])
        XCTAssertNil(try get("Doc", id, headers: ParseTestServer.headers(session: otherToken)).1["secret"])
        XCTAssertEqual(try get("Doc", id, headers: ParseTestServer.headers(session: ownerToken)).1["secret"], "s")
        XCTAssertEqual(try get("Doc", id, headers: master).1["secret"], "s")

        // No one may get: the CLP error, not "not found".
        _ = try server.json("PUT", "/parse/schemas/Doc", headers: master,
                            body: #"{"classLevelPermissions":{"get":{},"find":{},"create":{"*":true}}}"#, status: 200)
        let (status, body) = try get("Doc", id)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(body["code"], 119)
        XCTAssertEqual(try get("Doc", id, headers: master).0, 200)

        // get limited to objects whose `owner` is the caller: answered by the general path.
        _ = try server.json("PUT", "/parse/schemas/Doc", headers: master,
                            body: #"{"classLevelPermissions":{"get":{"pointerFields":["owner"]},"find":{},"create":{"*":true}}}"#,
                            status: 200)
        XCTAssertEqual(try get("Doc", id, headers: ParseTestServer.headers(session: ownerToken)).1["title"], "t")
        XCTAssertEqual(try get("Doc", id, headers: ParseTestServer.headers(session: otherToken)).0, 404)
    }

    func testMissingObjectsAndClasses() throws {
        let id = try create("Thing", #"{"a":1}"#)
        XCTAssertEqual(try get("Thing", "zzzzzzzzzz").0, 404)
        XCTAssertEqual(try get("Thing", "zzzzzzzzzz").1["code"], 101)
        XCTAssertEqual(try get("NoSuchClass", id).1["code"], 101)
        _ = try server.json("DELETE", "/parse/classes/Thing/\(id)", headers: master, status: 200)
        XCTAssertEqual(try get("Thing", id).0, 404)
    }

    func testClientsCannotReachClassesThatDoNotExistWhenCreationIsOff() throws {
        server.stop()
        server = try ParseTestServer(config: ["allowClientClassCreation": false])
        _ = try create("Known", #"{"a":1}"#)
        let (status, body) = try get("Unknown", "abcdefghij")
        XCTAssertEqual(status, 400)
        XCTAssertEqual(body["code"], 119)
    }
}
