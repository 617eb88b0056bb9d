import XCTest
import Core
@testable import ParseAPI

final class ObjectsRouteTests: XCTestCase {
    var server: ParseTestServer!

    override func setUpWithError() throws { server = try ParseTestServer() }
    override func tearDown() { server.stop() }

    static let recipe = """
        {"category":0,"ingredients":[{"name":"Egg","quantity":2},{"name":"Salt","quantity":0.5}],\
        "isAvailable":true,"name":"Omelette","nutritionalInformation":{"Calories":"200","Protein":"12g"},\
        "price":9.5,"releaseDate":{"__type":"Date","iso":"2023-11-14T22:13:20.123Z"},"servings":2,\
        "sideOptions":["Toast","Salad"]}
        """

    func testHealthNeedsNoCredentials() throws {
        let r = try server.request("POST", "/parse/health", headers: [], body: "garbage")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, #"{"status":"ok"}"#)
    }

    func testHealthFollowsTheDaemon() throws {
        server.service.setHealthProvider { .starting }
        let starting = try server.request("GET", "/parse/health", headers: [])
        XCTAssertEqual(starting.status, 503)
        XCTAssertEqual(starting.text, #"{"status":"starting"}"#)
        XCTAssertEqual(starting.header("Retry-After"), "1")
        server.service.setHealthProvider { .error }
        XCTAssertEqual(try server.request("POST", "/parse/health", headers: []).text, #"{"status":"error"}"#)
        server.service.setHealthProvider { .ok }
        XCTAssertEqual(try server.request("GET", "/parse/health", headers: []).status, 200)
    }

    func testMissingAppIdIsUnauthorized() throws {
        let r = try server.request("GET", "/parse/classes/Recipe", headers: [])
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.text, #"{"error":"unauthorized"}"#)
        XCTAssertEqual(r.header("Access-Control-Allow-Origin"), "*")
    }

    func testRequestsAreCountedByRoutePattern() throws {
        _ = try server.json("GET", "/parse/classes/Recipe/abcdefghij", status: 404)
        let text = server.service.app.metrics.render()
        XCTAssertTrue(text.contains("quartet_parse_requests_total"), text)
        XCTAssertTrue(text.contains("/classes/:className/:objectId"), text)
        XCTAssertFalse(text.contains("abcdefghij"))
    }

    func testCreateGetQueryUpdateDelete() throws {
        let created = try server.json("POST", "/parse/classes/Recipe", body: Self.recipe, status: 201)
        XCTAssertEqual(Set(created.objectValue?.keys ?? []), ["objectId", "createdAt"])
        let id = try XCTUnwrap(created["objectId"]?.stringValue)
        let got = try server.json("GET", "/parse/classes/Recipe/\(id)", status: 200)
        XCTAssertEqual(got["releaseDate"], ["__type": "Date", "iso": "2023-11-14T22:13:20.123Z"])
        XCTAssertEqual(got["ingredients"]?[0]?["quantity"], 2)
        XCTAssertEqual(got["isAvailable"], true)
        XCTAssertEqual(got["createdAt"], got["updatedAt"])
        let found = try server.json("GET", "/parse/classes/Recipe?where=%7B%22name%22:%22Omelette%22%7D&limit=100&skip=0",
                                    status: 200)
        XCTAssertEqual(found["results"]?.arrayValue?.count, 1)
        let none = try server.json("GET", "/parse/classes/Recipe?where=%7B%22name%22:%22Soup%22%7D", status: 200)
        XCTAssertEqual(none["results"]?.arrayValue?.count, 0)
        let updated = try server.json("PUT", "/parse/classes/Recipe/\(id)",
                                      body: #"{"servings":{"__op":"Increment","amount":2},"name":"Big"}"#, status: 200)
        XCTAssertEqual(updated["servings"], 4)
        XCTAssertNotNil(updated["updatedAt"])
        XCTAssertEqual(try server.json("DELETE", "/parse/classes/Recipe/\(id)", status: 200), [:])
        let gone = try server.json("GET", "/parse/classes/Recipe/\(id)", status: 404)
        XCTAssertEqual(gone, ["code": 101, "error": "Object not found."])
    }
}
