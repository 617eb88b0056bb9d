import Foundation
import XCTest
import Core

/// Objects and field types: BB-036 … BB-059 (BB-043 and BB-057 are in BackbeamSchemaTests).
final class BackbeamObjectTests: BackbeamTestCase {
    func test_BB_036_create() throws {
        let r = try api.send("POST", "/data/place", p(("set-name", "Bar Pepe")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        XCTAssertNotNil(r.id.range(of: "^[A-Za-z0-9]{12}$", options: .regularExpression), r.id)
        let object = try XCTUnwrap(r.main)
        XCTAssertEqual(object["type"], .string("place"))
        XCTAssertEqual(object["name#t"], .string("Bar Pepe"))
        XCTAssertEqual(object["created_at"]?.numberValue?.isInteger, true)
        XCTAssertEqual(object["created_at"], object["updated_at"])
    }

    func test_BB_037_read() throws {
        let id = try create("place", p(("set-name", "x")))
        let r = try api.send("GET", "/data/place/\(id)")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.json.objectValue?.keys.sorted(), ["id", "objects", "status"])
        XCTAssertEqual(r.main?["name#t"], .string("x"))
        let user = try create("user", p(("set-name", "u")))
        assertError(try api.send("GET", "/data/place/nosuch00000"), 404, "ObjectNotFound")
        assertError(try api.send("GET", "/data/place/\(user)"), 404, "ObjectNotFound")
        assertError(try api.send("GET", "/data/place/bad$id"), 404, "ObjectNotFound")
    }

    func test_BB_038_updateWithTypeField() throws {
        let id = try create("place", p(("set-name", "Bar Pepe")))
        Thread.sleep(forTimeInterval: 0.01)
        let r = try api.send("PUT", "/data/place/\(id)", p(("set-type", "Terraza")))
        XCTAssertEqual(r.status, 200, r.text)
        let o = try XCTUnwrap(r.main)
        XCTAssertEqual(o["type"], .string("place"))
        XCTAssertEqual(o["type#t"], .string("Terraza"))
        XCTAssertEqual(o["name#t"], .string("Bar Pepe"))
        XCTAssertGreaterThan(o["updated_at"]?.int64Value ?? 0, o["created_at"]?.int64Value ?? 0)
    }

    func test_BB_039_updateAnswersEveryField() throws {
        let id = try create("place", p(("set-name", "x")))
        XCTAssertEqual(try api.send("PUT", "/data/place/\(id)", p(("set-description", "from A"))).status, 200)
        var b = api!
        b.style = .browser
        let r = try b.send("PUT", "/data/place/\(id)", p(("set-name", "from B")))
        XCTAssertEqual(r.main?["description#t"], .string("from A"))
        XCTAssertEqual(r.main?["name#t"], .string("from B"))
    }

    func test_BB_040_emptyUpdateAndUnknownId() throws {
        let id = try create("place", p(("set-name", "x")))
        let before = try api.send("GET", "/data/place/\(id)").main?["updated_at"]
        Thread.sleep(forTimeInterval: 0.01)
        let r = try api.send("PUT", "/data/place/\(id)")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.main?["updated_at"], before)
        assertError(try api.send("PUT", "/data/place/nosuch00000", p(("set-name", "y"))), 404, "ObjectNotFound")
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 1)
    }

    func test_BB_041_delete() throws {
        let id = try create("place", p(("set-name", "last")))
        let r = try api.send("DELETE", "/data/place/\(id)")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.id, id)
        XCTAssertEqual(r.main?["name#t"], .string("last"))
        assertError(try api.send("GET", "/data/place/\(id)"), 404, "ObjectNotFound")
        assertError(try api.send("DELETE", "/data/place/\(id)"), 404, "ObjectNotFound")
    }

    func test_BB_042_invalidEntity() throws {
        try create("place", p(("set-name", "x")))
        assertError(try api.send("GET", "/data/bad$entity", rawPath: "/data/bad$entity"), 404, "EntityNotFound")
        assertError(try api.send("GET", "/data/' OR 1=1--", rawPath: "/data/%27%20OR%201%3D1--"), 404, "EntityNotFound")
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 1)
    }

    func test_BB_044_reservedAndInvalidFieldNames() throws {
        for name in ["set-created_at", "set-login_tw_id", "set-", "set-a b"] {
            assertError(try api.send("POST", "/data/place", p((name, name == "set-" ? "x" : "1"))), 400, "InvalidParameters")
        }
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 0)
    }

    func test_BB_045_numbersWithoutGratuitousDecimals() throws {
        let r = try api.send("POST", "/data/place", p(("set-price", "100")))
        XCTAssertTrue(r.text.contains("\"price#n\":100}") || r.text.contains("\"price#n\":100,"), r.text)
        var u = try api.send("PUT", "/data/place/\(r.id)", p(("set-price", "3.5")))
        XCTAssertEqual(u.main?["price#n"]?.numberValue?.text, "3.5")
        var android = api!
        android.style = .android
        u = try android.send("PUT", "/data/place/\(r.id)", p(("set-price", "1.0E10")))
        XCTAssertEqual(u.main?["price#n"]?.numberValue?.text, "10000000000")
    }

    func test_BB_046_typeIsKept() throws {
        let id = try create("place", p(("set-price", "5")))
        assertError(try api.send("PUT", "/data/place/\(id)", p(("set-price", "abc"))), 400, "InvalidParameters")
        assertError(try api.send("PUT", "/data/place/\(id)", p(("set-price#t", "x"))), 400, "InvalidParameters")
        XCTAssertEqual(try api.send("GET", "/data/place/\(id)").main?["price#n"]?.numberValue?.text, "5")
    }

    func test_BB_047_requestsAreAtomic() throws {
        let id = try create("place", p(("set-name", "old"), ("set-price", "1")))
        assertError(try api.send("PUT", "/data/place/\(id)", p(("set-name", "new"), ("set-price", "abc"))), 400, "InvalidParameters")
        XCTAssertEqual(try api.send("GET", "/data/place/\(id)").main?["name#t"], .string("old"))
    }

    func test_BB_048_increments() throws {
        let r = try api.send("POST", "/data/place", p(("incr-visits", "1")))
        XCTAssertEqual(r.main?["visits#n"]?.numberValue?.text, "1")
        let id = r.id
        let group = DispatchGroup()
        let failures = Counter()
        let client = api!
        for _ in 0..<50 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                if (try? client.send("PUT", "/data/place/\(id)", p(("incr-visits", "1"))).status) != 200 { failures.add() }
            }
        }
        group.wait()
        XCTAssertEqual(failures.value, 0)
        XCTAssertEqual(try api.send("GET", "/data/place/\(id)").main?["visits#n"]?.numberValue?.text, "51")
        XCTAssertEqual(try api.send("PUT", "/data/place/\(id)", p(("incr-visits", "2.5"))).main?["visits#n"]?.numberValue?.text, "53.5")
        XCTAssertEqual(try api.send("PUT", "/data/place/\(id)", p(("set-name", "text"))).status, 200)
        assertError(try api.send("PUT", "/data/place/\(id)", p(("incr-name", "1"))), 400, "InvalidParameters")
    }

    func test_BB_049_deleteClearsTheField() throws {
        for value in ["-", "1", ""] {
            let id = try create("place", p(("set-name", "x"), ("set-other", "y")))
            let r = try api.send("PUT", "/data/place/\(id)", p(("del-name", value)))
            XCTAssertEqual(r.status, 200, r.text)
            XCTAssertNil(r.main?["name#t"])
            XCTAssertFalse(r.text.contains("null"), r.text)
        }
    }

    func test_BB_050_booleans() throws {
        let r = try api.send("POST", "/data/place", p(("set-flag#b", "1")))
        XCTAssertEqual(r.main?["flag#b"], .bool(true))
        XCTAssertEqual(try api.send("PUT", "/data/place/\(r.id)", p(("set-flag", "0"))).main?["flag#b"], .bool(false))
        assertError(try api.send("PUT", "/data/place/\(r.id)", p(("set-flag", "maybe"))), 400, "InvalidParameters")
    }

    func test_BB_051_dates() throws {
        let r = try api.send("POST", "/data/place", p(("set-born#d", "1368520407344")))
        XCTAssertEqual(r.main?["born#d"]?.numberValue?.text, "1368520407344")
        assertError(try api.send("PUT", "/data/place/\(r.id)", p(("set-born", "abc"))), 400, "InvalidParameters")
    }

    func test_BB_052_days() throws {
        let r = try api.send("POST", "/data/place", p(("set-day#c", "2014-05-01")))
        XCTAssertEqual(r.main?["day#c"], .string("2014-05-01"))
        assertError(try api.send("PUT", "/data/place/\(r.id)", p(("set-day", "2014-02-30"))), 400, "InvalidParameters")
        XCTAssertEqual(try api.send("PUT", "/data/place/\(r.id)", p(("set-day", "٢٠١٤-٠٥-٠١"))).main?["day#c"],
                       .string("2014-05-01"))
    }

    func test_BB_053_json() throws {
        let r = try api.send("POST", "/data/place", p(("set-meta#j", "{\"a\":[1,2]}")))
        XCTAssertEqual(r.main?["meta#j"]?.serialized(), "{\"a\":[1,2]}")
        assertError(try api.send("PUT", "/data/place/\(r.id)", p(("set-meta", "{bad"))), 400, "InvalidParameters")
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        assertError(try api.send("PUT", "/data/place/\(r.id)", p(("set-meta", deep))), 400, "InvalidParameters")
    }

    func test_BB_054_iOSLocation() throws {
        let r = try api.send("POST", "/data/place", p(("set-loc", "41.648823,-0.889085,0.000000|(null)")))
        XCTAssertEqual(r.main?["loc#l"]?.serialized(), "{\"lat\":41.648823,\"lon\":-0.889085,\"hash\":\"ezrkgvb\"}")
    }

    func test_BB_055_otherLocationForms() throws {
        let r = try api.send("POST", "/data/place", p(("set-loc", "41.6488226,-0.8890853,0|Zaragoza")))
        XCTAssertEqual(r.main?["loc#l"]?["addr"], .string("Zaragoza"))
        XCTAssertEqual(try api.send("PUT", "/data/place/\(r.id)", p(("set-loc", "4.0E-5,1.0,0.0|"))).main?["loc#l"]?["lat"]?.doubleValue,
                       0.00004)
        assertError(try api.send("PUT", "/data/place/\(r.id)", p(("set-loc", "91,0|x"))), 400, "InvalidParameters")
        XCTAssertEqual(try api.send("PUT", "/data/place/\(r.id)", p(("set-loc", "Calle Mayor 1"))).main?["loc#l"]?.serialized(),
                       "{\"addr\":\"Calle Mayor 1\"}")
    }

    func test_BB_056_inference() throws {
        let user = try create("user", p(("set-name", "Ana")))
        let r = try api.send("POST", "/data/thing", p(("set-when", "2014-05-01"), ("set-meta", "{\"a\":1}"), ("set-n", "5"),
                                                      ("set-s", "hello"), ("set-loc", "1,2,0|x"), ("set-author", user)))
        let o = try XCTUnwrap(r.main)
        XCTAssertEqual(o["when#c"], .string("2014-05-01"))
        XCTAssertEqual(o["meta#j"]?.serialized(), "{\"a\":1}")
        XCTAssertEqual(o["n#n"]?.numberValue?.text, "5")
        XCTAssertEqual(o["s#t"], .string("hello"))
        XCTAssertNotNil(o["loc#l"]?["lat"])
        XCTAssertEqual(o["author#r"]?.serialized(), "{\"id\":\"\(user)\",\"type\":\"user\"}")
    }

    func test_BB_058_referenceToAMissingObject() throws {
        let user = try create("user", p(("set-name", "Ana")))
        let id = try create("book", p(("set-author", user)))
        assertError(try api.send("PUT", "/data/book/\(id)", p(("set-author", "nosuch00000"))), 400, "InvalidParameters")
        assertError(try api.send("POST", "/data/book", p(("set-editor#r", "nosuch00000"))), 400, "InvalidParameters")
    }

    func test_BB_059_passwordIsNeverAnswered() throws {
        let r = try api.send("POST", "/data/user", p(("set-name", "Ana"), ("set-password", "secret1")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertFalse(r.text.contains("password"), r.text)
        let id = r.id
        for response in [try api.send("GET", "/data/user/\(id)"), try api.send("GET", "/data/user"),
                         try api.send("GET", "/data/book/\(try create("book", p(("set-author", id))))", p(("joins", "join author")))] {
            XCTAssertEqual(response.status, 200, response.text)
            XCTAssertFalse(response.text.contains("password"), response.text)
            XCTAssertFalse(response.text.contains("secret1"), response.text)
        }
        // A user with an email: signup, login with a join, a query of users, and the user as another object's join.
        let signup = try api.send("POST", "/data/user", p(("set-email", "ana@example.com"), ("set-password", "secret2")))
        XCTAssertEqual(signup.status, 201, signup.text)
        let book = try create("book", p(("set-author", signup.id)))
        XCTAssertEqual(try api.send("PUT", "/data/user/\(signup.id)", [("add-books", [book])]).status, 200)
        for response in [signup,
                         try api.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "secret2"),
                                                                     ("joins", "join last 5 books"))),
                         try api.send("GET", "/data/user", p(("q", "where email = ?"), ("params", "ana@example.com"))),
                         try api.send("GET", "/data/book", p(("q", "join author")))] {
            XCTAssertTrue([200, 201].contains(response.status), response.text)
            XCTAssertTrue(response.text.contains("ana@example.com"), "the user is in the answer: \(response.text)")
            XCTAssertFalse(response.text.contains("password"), response.text)
            XCTAssertFalse(response.text.contains("secret2"), response.text)
        }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
