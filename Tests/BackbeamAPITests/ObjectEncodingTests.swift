import Core
import XCTest
@testable import BackbeamAPI

/// Object JSON with type suffixes (§4.4, §4.5) and the success bodies of §5.
final class ObjectEncodingTests: XCTestCase {
    private func text(_ object: JSONObject) -> String { JSON.object(object).serialized() }

    func testObjectEncoding() {
        // §4.4 example and §4.5 shapes.
        let place = WireObject(id: "uDiuuGIMMQ4O", entity: "place", createdAt: 1_368_520_407_344, updatedAt: 1_368_520_407_344,
                               fields: [("name", .value(.text, "Bar Pepe")),
                                        ("location", .value(.location, "41.648823,-0.889085,0.000000|Zaragoza")),
                                        ("author", .toOne(id: "mDWuly5NaQxO", entity: "user", joined: false)),
                                        ("price", .value(.number, "1.0E10")), ("open", .value(.boolean, "1")),
                                        ("born", .value(.date, "1368520407344")), ("day", .value(.day, "٢٠١٤-٠٥-٠١")),
                                        ("meta", .value(.json, "{\"a\":[1,2]}")), ("type", .value(.select, "Pub")),
                                        ("comments", .toMany(result: [], count: 3)),
                                        ("editor", .toOne(id: "e1", entity: "user", joined: true))])
        let (json, unreadable) = ObjectEncoder.encode(place)
        XCTAssertEqual(unreadable, [])
        XCTAssertEqual(text(json), #"{"type":"place","created_at":1368520407344,"updated_at":1368520407344,"name#t":"Bar Pepe","location#l":{"lat":41.648823,"lon":-0.889085,"addr":"Zaragoza","hash":"ezrkgvb"},"author#r":{"id":"mDWuly5NaQxO","type":"user"},"price#n":10000000000,"open#b":true,"born#d":1368520407344,"day#c":"2014-05-01","meta#j":{"a":[1,2]},"type#s":"Pub","comments#r":{"result":[],"count":3},"editor#r":"e1"}"#)
    }

    func testUnreadableValuesAndPasswordsAreLeftOut() {
        let user = WireObject(id: "u1", entity: "user", createdAt: 1, updatedAt: 2,
                              fields: [("password", .value(.text, "$2b$10$...")), ("email", .value(.text, "a@b.c")),
                                       ("age", .value(.number, "abc")), ("ref", .value(.reference, "x"))],
                              loginData: [("login_tw_id", "123"), ("login_tw_screen_name", "ana")])
        let (json, unreadable) = ObjectEncoder.encode(user)
        XCTAssertEqual(unreadable, ["age", "ref"])
        XCTAssertEqual(text(json), #"{"type":"user","created_at":1,"updated_at":2,"email#t":"a@b.c","login_tw_id":"123","login_tw_screen_name":"ana"}"#)
    }

    func testResponseBodies() {
        var objects = WireObjects()
        let a = WireObject(id: "a", entity: "item", createdAt: 1, updatedAt: 1, fields: [("n", .value(.number, "2"))])
        objects.add(a)
        objects.add(WireObject(id: "a", entity: "other", createdAt: 9, updatedAt: 9))
        objects.add(WireObject(id: "b", entity: "item", createdAt: 1, updatedAt: 1, fields: [("n", .value(.number, "x"))]))
        XCTAssertEqual(objects.count, 2, "an object appears once however it was reached")
        XCTAssertEqual(objects.unreadable, ["b.n"])
        XCTAssertEqual(text(ResponseBodies.list(objects: objects, ids: ["a", "b"], count: 57)),
                       #"{"status":"Success","objects":{"a":{"type":"item","created_at":1,"updated_at":1,"n#n":2},"b":{"type":"item","created_at":1,"updated_at":1}},"ids":["a","b"],"count":57}"#)
        XCTAssertEqual(text(ResponseBodies.list(objects: WireObjects(), ids: [], count: 0, distances: [])),
                       #"{"status":"Success","objects":{},"ids":[],"count":0,"distances":[]}"#)
        XCTAssertEqual(text(ResponseBodies.object(id: "a", objects: WireObjects(), auth: "abc")),
                       #"{"status":"Success","id":"a","objects":{},"auth":"abc"}"#)
        XCTAssertEqual(text(ResponseBodies.object(id: "a", objects: WireObjects(), status: .pendingValidation)),
                       #"{"status":"PendingValidation","id":"a","objects":{}}"#)
        XCTAssertEqual(text(ResponseBodies.removed(4)), #"{"status":"Success","removed":4,"count":4}"#)
        XCTAssertEqual(text(ResponseBodies.success([("channels", .array([.string("a")]))])),
                       #"{"status":"Success","channels":["a"]}"#)
    }
}
