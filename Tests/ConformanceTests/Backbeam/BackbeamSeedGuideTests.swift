import Foundation
import XCTest
import Core

/// The iOS "Manipulating data" guide (seeds 000/001) end to end, with the request shapes of the SDK:
/// queries with params, fetch with limit/offset and the total count, remove by query (limited and all),
/// refresh with joins, save with every field setter, to-many add/remove, and collection constraints with
/// social identities and emails. The Twitter user signs up through `/user/twitter/signup`, against a fake
/// Twitter on loopback that the server's `backbeam.social` points at.
final class BackbeamSeedGuideTests: BackbeamTestCase {
    nonisolated(unsafe) static var twitter: FakeSocialProvider?

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if Self.shared[key] == nil {
            let provider = try FakeSocialProvider()
            Self.twitter = provider
            let social = JSON.object(JSONObject([("twitter", .object(JSONObject([
                ("url", .string(provider.url("/tw/verify"))), ("consumerKey", .string("ck")),
                ("consumerSecret", .string("cs"))])))]))
            Self.shared[key] = try BackbeamServer(environment: ["QUARTET_BACKBEAM_SOCIAL": social.serialized()])
        }
        try super.setUpWithError()
    }

    override class func tearDown() {
        twitter?.stop()
        twitter = nil
        super.tearDown()
    }

    func testManipulatingDataGuide() throws {
        // "Creating and updating objects": save with every setter (string, number, increment, location,
        // to-one object, date, boolean, day, JSON; setRawValue sends the raw text).
        let other = try create("user", p(("set-name", "otherUser")))
        let yetAnother = try create("user", p(("set-name", "yetAnotherUser")))
        let created = try api.send("POST", "/data/some_entity", [
            ("set-field-name", ["field value"]), ("set-number#n", ["42"]), ("incr-counter", ["1"]),
            ("set-place#l", ["41.648823,-0.889085,0.000000|Zaragoza"]), ("set-owner", [other]),
            ("set-when#d", ["1368520407344"]), ("set-enabled#b", ["1"]), ("set-day#c", ["2014-05-01"]),
            ("set-payload#j", ["{\"tags\":[\"a\",\"b\"]}"]), ("set-raw", ["raw text"]),
        ])
        XCTAssertEqual(created.status, 201, created.text)
        let objectID = created.id
        let saved = try XCTUnwrap(created.main)
        XCTAssertEqual(saved["field-name#t"], .string("field value"))
        XCTAssertEqual(saved["number#n"]?.numberValue?.text, "42")
        XCTAssertEqual(saved["counter#n"]?.numberValue?.text, "1")
        XCTAssertEqual(saved["place#l"]?["addr"], .string("Zaragoza"))
        XCTAssertEqual(saved["owner#r"]?["id"], .string(other))
        XCTAssertEqual(saved["when#d"]?.numberValue?.text, "1368520407344")
        XCTAssertEqual(saved["enabled#b"], .bool(true))
        XCTAssertEqual(saved["day#c"], .string("2014-05-01"))
        XCTAssertEqual(saved["payload#j"]?["tags"]?[1], .string("b"))
        XCTAssertEqual(saved["raw#t"], .string("raw text"))

        // "all fields are synchronized with the database, not just the fields you have changed".
        var browser = api!
        browser.style = .browser
        _ = try browser.send("PUT", "/data/some_entity/\(objectID)", p(("set-whatever", "changed elsewhere")))
        let synced = try api.send("PUT", "/data/some_entity/\(objectID)", [("set-field-name", ["new value"]), ("incr-counter", ["2"])])
        XCTAssertEqual(synced.main?["whatever#t"], .string("changed elsewhere"))
        XCTAssertEqual(synced.main?["counter#n"]?.numberValue?.text, "3")

        // To-many: addObject:forField: / removeObject:forField:, then save.
        let user = try create("user", [("set-name", ["me"]), ("add-contacts", [yetAnother])])
        let changed = try api.send("PUT", "/data/user/\(user)", [("add-contacts", ["user/\(other)"]), ("rem-contacts", ["user/\(yetAnother)"])])
        XCTAssertEqual(changed.status, 200, changed.text)

        // "Querying and refreshing single objects": refresh with a join having a param.
        let refreshed = try api.send("GET", "/data/user/\(user)", [("joins", ["join contacts having name = ?"]), ("params", ["otherUser"])])
        XCTAssertEqual(refreshed.main?["contacts#r"]?.serialized(), "{\"result\":[],\"count\":1}")
        let refreshedN = try api.send("GET", "/data/user/\(user)", [("joins", ["join last 10 contacts having name = ?"]), ("params", ["otherUser"])])
        XCTAssertEqual(refreshedN.main?["contacts#r"]?.serialized(), "{\"result\":[\"\(other)\"],\"count\":1}")
        XCTAssertEqual(refreshedN.object(other)?["name#t"], .string("otherUser"))

        // "Queries": setQuery:withParams: then fetch:100 offset:0 with the total count.
        for i in 0..<25 { try create("some-entity", p(("set-something", String(90 + i)))) }
        let page = try api.send("GET", "/data/some-entity", [("q", ["where something > ? sort by something"]), ("params", ["100"]),
                                                              ("limit", ["10"]), ("offset", ["5"])])
        XCTAssertEqual(page.ids.count, 9, "14 matches, from the 6th on")
        XCTAssertEqual(page["count"]?.int64Value, 14)
        XCTAssertEqual(page.object(page.ids[0])?["something#n"]?.numberValue?.text, "106")

        // "Removing objects matching a query": removeObjects:10 offset:0, then removeAllObjects.
        let limited = try api.send("DELETE", "/data/some-entity", [("q", ["where something > ?"]), ("params", ["100"]),
                                                                   ("limit", ["10"]), ("offset", ["0"])])
        XCTAssertEqual(limited["removed"]?.int64Value, 10)
        let rest = try api.send("DELETE", "/data/some-entity", [("q", ["where something > ?"]), ("params", ["100"]),
                                                                ("limit", ["4345298816"]), ("offset", ["0"])])
        XCTAssertEqual(rest["removed"]?.int64Value, 4)
        XCTAssertEqual(try api.send("GET", "/data/some-entity")["count"]?.int64Value, 11)

        // "Collection constraints": a Twitter identifier, an object, an email address.
        let fakeTwitter = try XCTUnwrap(Self.twitter)
        fakeTwitter.answer("/tw/verify", body: "{\"id\":12345,\"id_str\":\"12345\",\"screen_name\":\"tweeter\",\"name\":\"Tweeter\"}")
        let signedUp = try api.send("POST", "/user/twitter/signup", p(("oauth_token", "tok"), ("oauth_token_secret", "sec")))
        XCTAssertEqual(signedUp.status, 201, signedUp.text)
        XCTAssertEqual(signedUp.main?["login_tw_id"]?.stringValue, "12345")
        let twitter = signedUp.id
        let mailed = try api.send("POST", "/data/user", p(("set-email", "user@example.com"), ("set-password", "secret1"))).id
        let collection = "tw:12345\nuser/\(other)\nemail:user@example.com"
        let found = try api.send("GET", "/data/user", [("q", ["where this in ?"]), ("params", [collection]), ("limit", ["100"]),
                                                      ("offset", ["0"])])
        XCTAssertEqual(Set(found.ids), [twitter, other, mailed])
        XCTAssertEqual(found["count"]?.int64Value, 3)

        // "Removing a single object".
        XCTAssertEqual(try api.send("DELETE", "/data/some_entity/\(objectID)").status, 200)
        assertError(try api.send("GET", "/data/some_entity/\(objectID)"), 404, "ObjectNotFound")
    }
}
