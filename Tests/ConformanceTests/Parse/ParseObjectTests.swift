import XCTest
import Core

/// Objects: create/get/update/delete, encodings, operations (spec §4, §6).
final class ParseObjectTests: ParseConformanceCase {
    static let recipe = """
        {"category":0,"ingredients":[{"name":"Egg","quantity":2},{"name":"Salt","quantity":0.5}],\
        "isAvailable":true,"name":"Omelette","nutritionalInformation":{"Calories":"200","Protein":"12g"},\
        "price":9.5,"releaseDate":{"__type":"Date","iso":"2023-11-14T22:13:20.123Z"},"servings":2,\
        "sideOptions":["Toast","Salad"]}
        """

    func test_PA_026_create_recipe_shape() throws {
        let r = try parse.send("POST", "/parse/classes/Recipe", headers: ParseServer.headers([
            ("X-Parse-Client-Version", "swift4.14.2"), ("X-Parse-Installation-Id", "50b60790-5ff0-455b-a37e-fc31c5241960"),
            ("X-Parse-Request-Id", "94929662-5e90-443c-954b-dccb8c86fdbc")]), body: Self.recipe)
        XCTAssertEqual(r.status, 201)
        let j = try JSONParser.parse(r.body)
        XCTAssertEqual(Set(j.objectValue?.keys ?? []), ["createdAt", "objectId"])
        let id = j["objectId"]?.stringValue ?? ""
        XCTAssertNotNil(id.range(of: "^[A-Za-z0-9]{10}$", options: .regularExpression))
        XCTAssertTrue(r.header("Location")?.hasSuffix("/parse/classes/Recipe/\(id)") ?? false)
    }

    func test_PA_027_values_round_trip() throws {
        let id = try parse.create("Recipe", Self.recipe)
        let extra = #"{"big":9007199254740993,"neg":-5,"tenth":0.1,"nine":9.0,"flag":true}"#
        try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)", body: extra)
        let r = try parse.send("GET", "/parse/classes/Recipe/\(id)")
        XCTAssertTrue(r.text.contains("\"big\":9007199254740993"))
        XCTAssertTrue(r.text.contains("\"tenth\":0.1"))
        XCTAssertTrue(r.text.contains("\"nine\":9,") || r.text.contains("\"nine\":9}"))
        XCTAssertTrue(r.text.contains("\"quantity\":2}"))
        XCTAssertTrue(r.text.contains("\"flag\":true"))
        let j = try JSONParser.parse(r.body)
        XCTAssertEqual(j["releaseDate"], ["__type": "Date", "iso": "2023-11-14T22:13:20.123Z"])
        XCTAssertEqual(j["neg"], -5)
        XCTAssertEqual(j["isAvailable"], true)
        for key in ["createdAt", "updatedAt"] {
            let ts = j[key]?.stringValue ?? ""
            XCTAssertNotNil(ts.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression))
        }
        XCTAssertEqual(j["nutritionalInformation"], ["Calories": "200", "Protein": "12g"])
    }

    func test_PA_028_date_normalisation() throws {
        let a = try parse.create("D", #"{"d":{"__type":"Date","iso":"2024-01-01T00:00:00+02:00"}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/D/\(a)")["d"]?["iso"], "2023-12-31T22:00:00.000Z")
        let b = try parse.create("D", #"{"d":{"__type":"Date","iso":"2024-01-01T00:00:00.123456Z"}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/D/\(b)")["d"]?["iso"], "2024-01-01T00:00:00.123Z")
        let bad = try parse.expect(400, "POST", "/parse/classes/D", body: #"{"d":{"__type":"Date","iso":"yesterday"}}"#)
        XCTAssertEqual(bad, ["code": 111, "error": "This is not a valid Date"])
        XCTAssertEqual(try parse.masterCount("D"), 2)
    }

    func test_PA_029_object_id_and_id_fields() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/TestObject", body: #"{"foo":"bar","objectId":"hello"}"#),
                       ["code": 105, "error": "objectId is an invalid field name."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/TestObject", body: #"{"foo":"bar","id":"x"}"#),
                       ["code": 105, "error": "id is an invalid field name."])
    }

    func test_PA_030_class_and_field_names() throws {
        for name in ["1Bad", "_Foo", "_SCHEMA", "_Hooks"] {
            let j = try parse.expect(400, "POST", "/parse/classes/\(name)", body: #"{"a":1}"#)
            XCTAssertEqual(j, ["code": 103, "error": .string("Invalid classname: \(name), classnames can only have alphanumeric "
                + "characters and _, and must start with an alpha character ")])
        }
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"bl!ng":1}"#),
                       ["code": 105, "error": "Invalid field name: bl!ng."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"className":1}"#),
                       ["code": 105, "error": "Invalid field name: className."])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"length":1}"#),
                       ["code": 105, "error": "Invalid field name: length."])
        for f in ["_hashed_password", "$set", "a.b"] {
            XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"\#(f)":1}"#)["code"], 105)
        }
    }

    func test_PA_031_nested_keys() throws {
        for body in [#"{"innerObj":{"key with a $":"fails"}}"#, #"{"innerObj":{"key with a .":"fails"}}"#,
                     #"{"innerObj":{"innerInnerObj":{"key with $":"fails"}}}"#] {
            XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: body),
                           ["code": 121, "error": "Nested keys should not contain the '$' or '.' characters"])
        }
        _ = try parse.create("T", #"{"n":{"Vitamin C":"10mg","_x":1}}"#)
    }

    func test_PA_032_prohibited_keywords() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"obj":{"constructor":{"prototype":{"dummy":0}}}}"#),
                       ["code": 105, "error": #"Prohibited keyword in request data: {"key":"constructor"}."#])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"a":{"b":{}},"c":{"__proto__":1}}"#)["code"], 105)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/T", body: #"{"x":{"_bsontype":"Code"}}"#)["code"], 105)
        let id = try parse.create("T", #"{"obj":{}}"#)
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/T/\(id)",
                                        body: #"{"obj.constructor.prototype.dummy":{"__op":"Increment","amount":1}}"#)["code"], 105)
    }

    func test_PA_033_type_locking() throws {
        _ = try parse.create("GameScore", #"{"score":1}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/GameScore", body: #"{"score":"high"}"#),
                       ["code": 111, "error": "schema mismatch for GameScore.score; expected Number but got String"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/GameScore", body: #"{"score":true}"#)["code"], 111)
        _ = try parse.create("C", #"{"n":null}"#)
        _ = try parse.create("C", #"{"n":"text"}"#)
        _ = try parse.create("C", #"{"owner":{"__type":"Pointer","className":"_User","objectId":"u1"}}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/C",
                                        body: #"{"owner":{"__type":"Pointer","className":"Post","objectId":"p1"}}"#),
                       ["code": 111, "error": "schema mismatch for C.owner; expected Pointer<_User> but got Pointer<Post>"])
    }

    func test_PA_034_tagged_value_validation() throws {
        _ = try parse.create("G", #"{"loc":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/G", body: #"{"loc2":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#),
                       ["code": 111, "error": "there can only be one geopoint field in a class"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/H", body: #"{"p":{"__type":"GeoPoint","latitude":91,"longitude":0}}"#),
                       ["code": 111, "error": "This is not a valid GeoPoint"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/H", body: #"{"b":{"__type":"Bytes","base64":"!!!"}}"#),
                       ["code": 111, "error": "This is not a valid Bytes"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/H", body: #"{"p":{"__type":"Pointer","className":"X"}}"#),
                       ["code": 111, "error": "This is not a valid Pointer"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/H",
                                        body: #"{"p":{"__type":"Polygon","coordinates":[[0,0],[0,0],[1,1]]}}"#),
                       ["code": 111, "error": "This is not a valid Polygon"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/H", body: #"{"p":{"__type":"Frob"}}"#)["code"], 111)
    }

    func test_PA_035_polygon_pointer_file_values() throws {
        let id = try parse.create("P", #"{"poly":{"__type":"Polygon","coordinates":[[0,0],[0,1],[1,1]]}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/P/\(id)")["poly"]?["coordinates"], [[0, 0], [0, 1], [1, 1], [0, 0]])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/P",
                                        body: #"{"p":{"__type":"Pointer","className":"_Hooks","objectId":"x"}}"#)["code"], 103)
        let f = try parse.create("P", #"{"file":{"__type":"File","name":"abc_x.txt","url":"https://evil.example/x"}}"#)
        let url = try parse.expect(200, "GET", "/parse/classes/P/\(f)")["file"]?["url"]?.stringValue ?? ""
        XCTAssertTrue(url.hasSuffix("/parse/files/\(ParseServer.appId)/abc_x.txt"), url)
        XCTAssertFalse(url.contains("evil"))
    }

    func test_PA_036_acl_normalisation() throws {
        let id = try parse.create("A", #"{"ACL":{"*":{"read":true,"write":false}}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/A/\(id)")["ACL"], ["*": ["read": true]])
        for acl in [#"{"*":{"read":"yes"}}"#, #"{"*":true}"#, #""public""#] {
            XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/A", body: #"{"ACL":\#(acl)}"#)["code"], 123)
        }
    }

    func test_PA_037_create_with_operations() throws {
        let j = try parse.expect(201, "POST", "/parse/classes/O",
                                 body: #"{"count":{"__op":"Increment","amount":2},"tags":{"__op":"AddUnique","objects":["a","a"]}}"#)
        XCTAssertEqual(j["count"], 2)
        XCTAssertEqual(j["tags"], ["a"])
    }

    func test_PA_038_update_echo() throws {
        let id = try parse.create("GameScore", #"{"c":1,"d":["1"],"e":["1"],"f":["1","2"]}"#)
        let j = try parse.expect(200, "PUT", "/parse/classes/GameScore/\(id)", body: """
            {"a":"b","c":{"__op":"Increment","amount":2},"d":{"__op":"Add","objects":["2"]},\
            "e":{"__op":"AddUnique","objects":["1","2"]},"f":{"__op":"Remove","objects":["2"]},\
            "selfThing":{"__type":"Pointer","className":"GameScore","objectId":"\(id)"}}
            """)
        XCTAssertEqual(Set(j.objectValue?.keys ?? []), ["c", "d", "e", "f", "updatedAt"])
        XCTAssertEqual(j["c"], 3)
        XCTAssertEqual(j["d"], ["1", "2"])
        XCTAssertEqual(j["e"], ["1", "2"])
        XCTAssertEqual(j["f"], ["1"])
        XCTAssertEqual(try parse.expect(200, "PUT", "/parse/classes/GameScore/\(id)", body: #"{"key":{"__op":"Increment","amount":1}}"#)["key"], 1)
        XCTAssertEqual(try parse.expect(200, "PUT", "/parse/classes/GameScore/\(id)", body: #"{"key":{"__op":"Increment","amount":-1}}"#)["key"], 0)
    }

    func test_PA_039_operation_errors() throws {
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/O", body: #"{"n":{"__op":"Increment","amount":"1"}}"#),
                       ["code": 107, "error": "incrementing must provide a number"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/O", body: #"{"n":{"__op":"Add","objects":"x"}}"#),
                       ["code": 107, "error": "objects to add must be an array"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/O", body: #"{"n":{"__op":"Remove","objects":5}}"#),
                       ["code": 107, "error": "objects to remove must be an array"])
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/O", body: #"{"n":{"__op":"Frobnicate"}}"#),
                       ["code": 108, "error": "The Frobnicate operator is not supported yet."])
    }

    func test_PA_040_delete_op_and_pointer_equality() throws {
        let id = try parse.create("Recipe", #"{"price":1,"ptrs":[{"__type":"Pointer","className":"X","objectId":"a1"}]}"#)
        let j = try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)", body: #"{"price":{"__op":"Delete"}}"#)
        XCTAssertEqual(j.objectValue?.keys, ["updatedAt"])
        XCTAssertNil(try parse.expect(200, "GET", "/parse/classes/Recipe/\(id)")["price"])
        try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)", body: #"{"absent":{"__op":"Delete"}}"#)
        let p = #"{"__type":"Pointer","className":"X","objectId":"a1"}"#
        XCTAssertEqual(try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)",
                                        body: #"{"ptrs":{"__op":"AddUnique","objects":[\#(p)]}}"#)["ptrs"]?.arrayValue?.count, 1)
        XCTAssertEqual(try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)",
                                        body: #"{"ptrs":{"__op":"Remove","objects":[\#(p)]}}"#)["ptrs"], [])
    }

    func test_PA_041_dotted_paths() throws {
        let id = try parse.create("Recipe", #"{"nutritionalInformation":{"Calories":"200","Protein":"12g"}}"#)
        let j = try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)", body: #"{"nutritionalInformation.Calories":"250"}"#)
        XCTAssertEqual(j.objectValue?.keys, ["updatedAt"])
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Recipe/\(id)")["nutritionalInformation"],
                       ["Calories": "250", "Protein": "12g"])
        let inc = try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)", body: #"{"stats.wins":{"__op":"Increment","amount":1}}"#)
        XCTAssertEqual(inc["stats"], ["wins": 1])
    }

    func test_PA_042_ambiguous_and_indexed_paths() throws {
        let id = try parse.create("T", #"{"a":{"x":0}}"#)
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/T/\(id)", body: #"{"a":{"x":1},"a.y":2}"#)["code"], 107)
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/T/\(id)", body: #"{"a.0.b":1}"#)["code"], 105)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/T/\(id)")["a"], ["x": 0])
    }

    func test_PA_043_concurrent_increments() throws {
        let id = try parse.create("Counter", #"{"n":0}"#)
        let p = parse!
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            _ = try? p.send("PUT", "/parse/classes/Counter/\(id)", body: #"{"n":{"__op":"Increment","amount":1}}"#)
        }
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Counter/\(id)")["n"], 100)
        DispatchQueue.concurrentPerform(iterations: 50) { i in
            _ = try? p.send("PUT", "/parse/classes/Counter/\(id)", body: #"{"list":{"__op":"Add","objects":[\#(i)]}}"#)
        }
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Counter/\(id)")["list"]?.arrayValue?.count, 50)
    }

    func test_PA_044_full_object_put() throws {
        let id = try parse.create("Recipe", #"{"name":"a"}"#)
        let before = try parse.expect(200, "GET", "/parse/classes/Recipe/\(id)")
        Thread.sleep(forTimeInterval: 0.01)
        var body = before.objectValue ?? [:]
        body["name"] = "b"
        try parse.expect(200, "PUT", "/parse/classes/Recipe/\(id)", body: JSON.object(body).serialized())
        let after = try parse.expect(200, "GET", "/parse/classes/Recipe/\(id)")
        XCTAssertEqual(after["createdAt"], before["createdAt"])
        XCTAssertNotEqual(after["updatedAt"], before["updatedAt"])
        XCTAssertEqual(after["name"], "b")
    }

    func test_PA_045_get_parameters() throws {
        let id = try parse.create("Recipe", #"{"name":"a"}"#)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Recipe/\(id)?limit=5"),
                       ["code": 102, "error": "Improper encode of parameter"])
        try parse.expect(200, "GET", "/parse/classes/Recipe/\(id)?include=" + q(#"["author"]"#))
    }

    func test_PA_046_unknown_ids() throws {
        _ = try parse.create("Recipe", #"{"name":"a"}"#)
        for (m, p) in [("GET", "doesNotExist"), ("GET", "..%2F..%2Fx"), ("PUT", "doesNotExist"), ("DELETE", "doesNotExist")] {
            XCTAssertEqual(try parse.expect(404, m, "/parse/classes/Recipe/\(p)", body: m == "PUT" ? "{}" : nil),
                           ["code": 101, "error": "Object not found."])
        }
    }

    func test_PA_047_delete() throws {
        let id = try parse.create("Recipe", #"{"name":"a"}"#)
        XCTAssertEqual(try parse.expect(200, "DELETE", "/parse/classes/Recipe/\(id)", body: "{}"), [:])
        XCTAssertEqual(try parse.expect(404, "DELETE", "/parse/classes/Recipe/\(id)")["code"], 101)
        XCTAssertEqual(try parse.expect(404, "GET", "/parse/classes/Recipe/\(id)")["code"], 101)
    }

    func test_PA_048_client_class_creation_default() throws {
        _ = try parse.create("BrandNew", #"{"x":1}"#)
        let s = try parse.expect(200, "GET", "/parse/schemas/BrandNew", headers: ParseServer.headers(master: true))
        XCTAssertEqual(s["classLevelPermissions"], ["find": ["*": true], "count": ["*": true], "get": ["*": true],
                                                    "create": ["*": true], "update": ["*": true], "delete": ["*": true],
                                                    "addField": ["*": true], "protectedFields": ["*": []]])
    }

    func test_PA_050_defaults_and_required() throws {
        try parse.expect(200, "POST", "/parse/schemas/Req", headers: ParseServer.headers(master: true), body: """
            {"fields":{"score":{"type":"Number","defaultValue":0},"title":{"type":"String","required":true}}}
            """)
        let j = try parse.expect(201, "POST", "/parse/classes/Req", body: #"{"title":"t"}"#)
        XCTAssertEqual(j["score"], 0)
        XCTAssertEqual(try parse.expect(400, "POST", "/parse/classes/Req", body: "{}"), ["code": 142, "error": "title is required"])
        let id = j["objectId"]?.stringValue ?? ""
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/Req/\(id)", body: #"{"title":null}"#)["code"], 142)
    }

    func test_PA_051_relations() throws {
        let (uid, _) = try parse.signUp("liker")
        let post = try parse.create("Post", #"{"t":1}"#)
        let user = #"{"__type":"Pointer","className":"_User","objectId":"\#(uid)"}"#
        try parse.expect(200, "PUT", "/parse/classes/Post/\(post)", body: #"{"likes":{"__op":"AddRelation","objects":[\#(user)]}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Post/\(post)")["likes"], ["__type": "Relation", "className": "_User"])
        let mixed = #"{"likes":{"__op":"AddRelation","objects":[\#(user),{"__type":"Pointer","className":"Post","objectId":"x"}]}}"#
        XCTAssertEqual(try parse.expect(400, "PUT", "/parse/classes/Post/\(post)", body: mixed)["code"], 111)
    }

    func test_PA_052_relation_rows_follow_deletes() throws {
        let a = try parse.create("Member", "{}"), b = try parse.create("Member", "{}")
        let owner = try parse.create("Owner", """
            {"m":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"Member","objectId":"\(a)"},\
            {"__type":"Pointer","className":"Member","objectId":"\(b)"}]}}
            """)
        let related = q(#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Owner","objectId":"\#(owner)"},"key":"m"}}"#)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Member?where=\(related)")["results"]?.arrayValue?.count, 2)
        try parse.expect(200, "DELETE", "/parse/classes/Member/\(a)")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Member?where=\(related)")["results"]?.arrayValue?.count, 1)
        try parse.expect(200, "DELETE", "/parse/classes/Owner/\(owner)")
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Member?where=\(related)")["results"], [])
    }

    func test_PA_053_no_hidden_fields_in_output() throws {
        let (uid, token) = try parse.signUp("hidden", email: "h@example.com")
        for r in [try parse.send("GET", "/parse/users/me", headers: ParseServer.headers(session: token)),
                  try parse.send("GET", "/parse/users/\(uid)", headers: ParseServer.headers(master: true)),
                  try parse.send("POST", "/parse/login", body: #"{"username":"hidden","password":"secret"}"#),
                  try parse.send("GET", "/parse/users", headers: ParseServer.headers(master: true))] {
            XCTAssertEqual(r.status, 200)
            XCTAssertFalse(r.text.contains("\"_"), r.text)
            XCTAssertFalse(r.text.contains("\"password\""), r.text)
        }
    }
}
