import XCTest
import Core

/// `/schemas`, indexes, purge, read-only master (spec §3.4, §14).
final class ParseSchemaTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_READ_ONLY_MASTER_KEY": "readonlykey"] }
    let master = ParseServer.headers(master: true)
    let readOnly = [("X-Parse-Application-Id", ParseServer.appId), ("X-Parse-Master-Key", "readonlykey")]

    static let allTypes = """
        {"className":"HasAllPOD","fields":{"aNumber":{"type":"Number"},"aString":{"type":"String"},"aBool":{"type":"Boolean"},\
        "aDate":{"type":"Date"},"aObject":{"type":"Object"},"aArray":{"type":"Array"},"aGeoPoint":{"type":"GeoPoint"},\
        "aFile":{"type":"File"},"aBytes":{"type":"Bytes"},"aPolygon":{"type":"Polygon"},\
        "aPointer":{"type":"Pointer","targetClass":"_User"},"aRelation":{"type":"Relation","targetClass":"_User"}}}
        """

    func test_PA_150_schemas_need_master() throws {
        let none = try parse.send("GET", "/parse/schemas", headers: [])
        XCTAssertEqual(none.status, 403)
        XCTAssertEqual(none.text, #"{"error":"unauthorized"}"#)
        let client = try parse.send("GET", "/parse/schemas", headers: ParseServer.headers([("X-Parse-REST-API-Key", "anything")]))
        XCTAssertEqual(client.status, 403)
        XCTAssertEqual(client.text, #"{"error":"unauthorized: master key is required"}"#)
    }

    func test_PA_151_create_schema() throws {
        let j = try parse.expect(200, "POST", "/parse/schemas", headers: master, body: Self.allTypes)
        XCTAssertEqual(j["fields"]?["objectId"], ["type": "String"])
        XCTAssertEqual(j["fields"]?["aPointer"], ["type": "Pointer", "targetClass": "_User"])
        XCTAssertEqual(j["classLevelPermissions"]?["find"], ["*": true])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas", headers: master, body: Self.allTypes),
                       ["code": 103, "error": "Class HasAllPOD already exists."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/schemas/HASALLPOD", headers: master),
                       ["code": 103, "error": "Class HASALLPOD does not exist."])
    }

    func test_PA_152_class_name_rules() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas/A", headers: master, body: #"{"className":"B"}"#),
                       ["code": 103, "error": "Class name mismatch between B and A."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas", headers: master, body: "{}"),
                       ["code": 135, "error": "POST /schemas needs a class name."])
    }

    func test_PA_153_field_rules() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas/F", headers: master, body: #"{"fields":{"a":{"type":"Foo"}}}"#),
                       ["code": 111, "error": "invalid field type: Foo"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas/F", headers: master, body: #"{"fields":{"a":{"type":"Pointer"}}}"#),
                       ["code": 135, "error": "type Pointer needs a class name"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas/F", headers: master, body: #"{"fields":{"0bad":{"type":"String"}}}"#),
                       ["code": 105, "error": "invalid field name: 0bad"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas/F", headers: master, body: #"{"fields":{"createdAt":{"type":"Date"}}}"#),
                       ["code": 136, "error": "field createdAt cannot be added"])
    }

    func test_PA_154_update_schema() throws {
        try parse.expect(200, "POST", "/parse/schemas/C", headers: master, body: #"{"fields":{"f":{"type":"String"},"a":{"type":"String"},"aString":{"type":"String"}}}"#)
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"fields":{"f":{"type":"String"}}}"#),
                       ["code": 255, "error": "Field f exists, cannot update."])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"fields":{"x":{"__op":"Delete"}}}"#),
                       ["code": 255, "error": "Field x does not exist, cannot delete."])
        try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"fields":{"a":{"__op":"Delete"},"0bad":{"type":"String"}}}"#)
        XCTAssertNotNil(try parse.expect(200, "GET", "/parse/schemas/C", headers: master)["fields"]?["a"])
        let id = try parse.create("C", #"{"aString":"v"}"#)
        try parse.expect(200, "PUT", "/parse/schemas/C", headers: master, body: #"{"fields":{"aString":{"__op":"Delete"}}}"#)
        XCTAssertNil(try parse.expect(200, "GET", "/parse/classes/C/\(id)")["aString"])
        // A JSON object cannot name a field twice; the re-add with another type follows the delete.
        let readd = try parse.expect(200, "PUT", "/parse/schemas/C", headers: master, body: #"{"fields":{"aString":{"type":"Number"}}}"#)
        XCTAssertEqual(readd["fields"]?["aString"], ["type": "Number"])
    }

    func test_PA_155_drop_schema() throws {
        try parse.expect(200, "POST", "/parse/schemas", headers: master, body: Self.allTypes)
        let id = try parse.create("HasAllPOD", #"{"aString":"x"}"#)
        let j = try parse.expect(400, "DELETE", "/parse/schemas/HasAllPOD", headers: master)
        XCTAssertEqual(j["code"], 255)
        XCTAssertTrue((j["error"]?.stringValue ?? "").contains("HasAllPOD") && (j["error"]?.stringValue ?? "").contains("contains 1"))
        try parse.expect(200, "DELETE", "/parse/classes/HasAllPOD/\(id)")
        XCTAssertEqual(try parse.expect(200, "DELETE", "/parse/schemas/HasAllPOD", headers: master), [:])
        XCTAssertEqual(try parse.expect(400, "DELETE", "/parse/schemas/_User", headers: master)["code"], 103)
    }

    func test_PA_156_indexes() throws {
        try parse.expect(200, "POST", "/parse/schemas/C", headers: master, body: #"{"fields":{"name":{"type":"String"}}}"#)
        let j = try parse.expect(200, "PUT", "/parse/schemas/C", headers: master, body: #"{"indexes":{"name_1":{"name":1}}}"#)
        XCTAssertEqual(j["indexes"], ["_id_": ["_id": 1], "name_1": ["name": 1]])
        _ = try parse.create("C", #"{"name":"x"}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/C?where=" + q(#"{"name":"x"}"#))["results"]?.arrayValue?.count, 1)
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"indexes":{"name_1":{"name":1}}}"#),
                       ["code": 102, "error": "Index name_1 exists, cannot update."])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"indexes":{"n2":{"nope":1}}}"#),
                       ["code": 102, "error": "Field nope does not exist, cannot add index."])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/schemas/C", headers: master, body: #"{"indexes":{"zz":{"__op":"Delete"}}}"#),
                       ["code": 102, "error": "Index zz does not exist, cannot delete."])
    }

    func test_PA_157_purge() throws {
        _ = try parse.create("Recipe", #"{"name":"a"}"#)
        XCTAssertEqual(try parse.expect(200, "DELETE", "/parse/purge/Recipe", headers: master), [:])
        XCTAssertEqual(try parse.masterCount("Recipe"), 0)
        try parse.expect(200, "GET", "/parse/schemas/Recipe", headers: master)
        let r = try parse.send("DELETE", "/parse/purge/Recipe")
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.text, #"{"error":"unauthorized: master key is required"}"#)
    }

    func test_PA_158_read_only_master_and_schemas() throws {
        try parse.expect(200, "GET", "/parse/schemas", headers: readOnly)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/schemas/X", headers: readOnly, body: "{}"),
                       ["code": 119, "error": "read-only masterKey isn't allowed to create a schema."])
        XCTAssertEqual(try parse.expect(400, "DELETE", "/parse/purge/X", headers: readOnly),
                       ["code": 119, "error": "read-only masterKey isn't allowed to purge a schema."])
    }

    func test_PA_192_read_only_master_objects() throws {
        let id = try parse.create("X", #"{"ACL":{}}"#, headers: master)
        try parse.expect(200, "GET", "/parse/classes/X/\(id)", headers: readOnly)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/X", headers: readOnly, body: "{}"),
                       ["code": 119, "error": "read-only masterKey isn't allowed to perform the create operation."])
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/X/\(id)", headers: readOnly, body: "{}"),
                       ["code": 119, "error": "read-only masterKey isn't allowed to perform the update operation."])
        XCTAssertEqual(try parse.expect(400, "DELETE", "/parse/classes/X/\(id)", headers: readOnly),
                       ["code": 119, "error": "read-only masterKey isn't allowed to perform the delete operation."])
        let upload = try parse.send("POST", "/parse/files/a.txt", headers: readOnly, body: "hi")
        XCTAssertEqual(upload.status, 400)
        XCTAssertEqual((try JSONParser.parse(upload.body))["code"], 119)
    }
}
