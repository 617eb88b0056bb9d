import Foundation
import XCTest
import Core

/// BQL: BB-070 … BB-088.
final class BackbeamBQLTests: BackbeamTestCase {
    private func query(_ entity: String, _ q: String, _ params: [String] = [], extra: [(String, [String])] = [],
                       file: StaticString = #filePath, line: UInt = #line) throws -> BBResponse {
        var all: [(String, [String])] = [("q", [q])]
        if !params.isEmpty { all.append(("params", params)) }
        return try api.send("GET", "/data/\(entity)", all + extra)
    }

    func test_BB_070_equality() throws {
        let a = try create("place", p(("set-type", "Terraza")))
        _ = try create("place", p(("set-type", "Bar")))
        let c = try create("place", p(("set-type", "Terraza")))
        let r = try query("place", "where type=?", ["Terraza"])
        XCTAssertEqual(r.ids, [a, c])
        XCTAssertEqual(r["count"]?.int64Value, 2)
    }

    func test_BB_071_defaultAndExplicitOrder() throws {
        var ids: [String] = []
        for w in ["3", "1", "2", "1"] {
            ids.append(try create("item", p(("set-weight", w))))
            Thread.sleep(forTimeInterval: 0.002)
        }
        XCTAssertEqual(try query("item", "").ids, ids)
        XCTAssertEqual(try query("item", "sort by weight").ids, [ids[1], ids[3], ids[2], ids[0]])
        XCTAssertEqual(try query("item", "sort by weight desc").ids, [ids[0], ids[2], ids[1], ids[3]])
        // Equal weights created in the same millisecond: the id decides, in both directions of the sort.
        let tied = try (0..<6).map { _ in try create("tie", p(("set-weight", "7"))) }
        let other = try create("tie", p(("set-weight", "8")))
        _ = try BackbeamDatabase(bb.server).query("""
            UPDATE bb_objects SET created_at = 1000 WHERE entity = 'tie'
              AND space = (SELECT id FROM bb_spaces WHERE project = ? AND env = 'dev')
            """, [.text(projectName)])
        XCTAssertEqual(try query("tie", "sort by weight").ids, tied.sorted() + [other])
        XCTAssertEqual(try query("tie", "sort by weight desc").ids, [other] + tied.sorted())
    }

    func test_BB_072_rightAssociativeAndOr() throws {
        let both = try create("flag", p(("set-a", "1"), ("set-b", "0"), ("set-c", "1")))
        let onlyC = try create("flag", p(("set-a", "0"), ("set-b", "0"), ("set-c", "1")))
        let r = try query("flag", "where a=? and b=? or c=?", ["1", "1", "1"])
        XCTAssertEqual(r.ids, [both], "a and (b or c)")
        XCTAssertEqual(try query("flag", "where (a=? and b=?) or c=?", ["1", "1", "1"]).ids, [both, onlyC])
    }

    func test_BB_073_parenthesisedRanges() throws {
        let cheapLight = try create("item", p(("set-price", "1"), ("set-weight", "1")))
        _ = try create("item", p(("set-price", "5"), ("set-weight", "1")))
        let dearHeavy = try create("item", p(("set-price", "9"), ("set-weight", "9")))
        _ = try create("item", p(("set-price", "1"), ("set-weight", "5")))
        let r = try query("item", "where (price<? or price>?) and (weight<? or weight>?)", ["2", "8", "2", "8"])
        XCTAssertEqual(r.ids, [cheapLight, dearHeavy])
    }

    func test_BB_074_isAndIsNot() throws {
        let zgz = try create("city", p(("set-name", "Zaragoza")))
        let hu = try create("city", p(("set-name", "Huesca")))
        let a = try create("event", p(("set-city", zgz)))
        let b = try create("event", p(("set-city", hu)))
        let none = try create("event", p(("set-title", "no city")))
        XCTAssertEqual(try query("event", "where city is ?", ["city/\(zgz)"]).ids, [a])
        XCTAssertEqual(try query("event", "where city is ?", [zgz]).ids, [a])
        XCTAssertEqual(try query("event", "where city is not ?", ["city/\(zgz)"]).ids, [b, none])
    }

    func test_BB_075_has() throws {
        let es = try create("language", p(("set-name", "es")))
        let en = try create("language", p(("set-name", "en")))
        let spain = try create("country", [("add-languages", [es])])
        let mexico = try create("country", [("add-languages", [es, en])])
        _ = try create("country", [("add-languages", [en])])
        XCTAssertEqual(try query("country", "where languages has ?", ["language/\(es)"]).ids, [spain, mexico])
    }

    func test_BB_076_thisInRelation() throws {
        let a = try create("city", p(("set-name", "a")))
        _ = try create("city", p(("set-name", "b")))
        let c = try create("city", p(("set-name", "c")))
        let user = try create("user", [("add-favoriteCities", [c, a])])
        XCTAssertEqual(try query("city", "where this in ?.favoriteCities", ["user/\(user)"]).ids, [a, c])
    }

    func test_BB_077_collections() throws {
        let ids = try (0..<4).map { _ in try create("thing", p(("set-n", "1"))) }
        XCTAssertEqual(try query("thing", "where this in ?", ["\(ids[0])\n\(ids[2])"]).ids, [ids[0], ids[2]])
        XCTAssertEqual(try query("thing", "where this not in ?", ["\(ids[0])\n\(ids[2])"]).ids, [ids[1], ids[3]])
    }

    func test_BB_078_identitiesInCollections() throws {
        let tw = try create("user", p(("set-name", "tw")))
        let mail = try api.send("POST", "/data/user", p(("set-email", "ana@example.com"))).id
        let fb = try create("user", p(("set-name", "fb")))
        _ = try create("user", p(("set-name", "other")))
        let db = BackbeamDatabase(bb.server)
        try db.insertIdentity(provider: "tw", providerID: "123", project: projectName, userID: tw)
        try db.insertIdentity(provider: "fb", providerID: "10", project: projectName, userID: fb)
        let r = try query("user", "where this in ?", ["tw:123\nemail:ANA@example.com\nfb:10"])
        XCTAssertEqual(Set(r.ids), [tw, mail, fb])
        // Prefixed entries select users only.
        _ = try create("place", p(("set-name", "x")))
        XCTAssertEqual(try query("place", "where this in ?", ["tw:123"]).ids, [])
    }

    func test_BB_079_likeWithRelevance() throws {
        let one = try create("place", p(("set-name", "Bar Pepe")))
        let both = try create("place", p(("set-name", "Pepe en Zaragoza, el bar de Pepe")))
        _ = try create("place", p(("set-name", "Casa Juan")))
        let r = try query("place", "where name like ?", ["pepe zaragoza"])
        XCTAssertEqual(r.ids, [both, one])
        let hostile = try query("place", "where name like ?", ["\" OR * NEAR("])
        XCTAssertEqual(hostile.status, 200, hostile.text)
        XCTAssertEqual(hostile.ids, [])
    }

    func test_BB_080_operatorNotForTheType() throws {
        _ = try create("place", p(("set-price", "3"), ("set-loc", "1,2,0|x")))
        assertError(try query("place", "where price like ?", ["3"]), 400, "InvalidQuery")
        assertError(try query("place", "sort by loc"), 400, "InvalidQuery")
    }

    func test_BB_081_syntaxErrors() throws {
        _ = try create("place", p(("set-name", "x")))
        assertError(try query("place", "where name = ? and", ["x"]), 400, "InvalidQuery")
        let injection = try query("place", "where name = 'x' OR 1=1 --")
        assertError(injection, 400, "InvalidQuery")
        XCTAssertNil(injection["objects"])
    }

    func test_BB_082_parameterCount() throws {
        assertError(try query("place", "where name = ?", ["a", "b"]), 400, "InvalidParameters")
        assertError(try query("place", "where name = ? or name = ?", ["a"]), 400, "InvalidParameters")
    }

    func test_BB_083_keywordCaseAndLiterals() throws {
        let a = try create("place", p(("set-type", "Terraza"), ("set-name", "b")))
        let b = try create("place", p(("set-type", "Terraza"), ("set-name", "a")))
        XCTAssertEqual(try query("place", "WHERE type=? SORT BY name ASC", ["Terraza"]).ids, [b, a])
        let post = try create("post", p(("set-title", "x")))
        let r = try api.send("GET", "/data/post/\(post)", p(("joins", "join last 5 comments having score > 10")))
        XCTAssertEqual(r.status, 200, r.text)
    }

    func test_BB_084_limits() throws {
        let long = "where name = ?" + String(repeating: " ", count: 3501 - 14)
        XCTAssertEqual(long.utf16.count, 3501)
        assertError(try query("place", long, ["x"]), 400, "InvalidQuery")
        let many = "where " + Array(repeating: "a = ?", count: 201).joined(separator: " and ")
        assertError(try query("place", many, Array(repeating: "1", count: 201)), 400, "InvalidQuery")
        let nested = "where " + String(repeating: "(", count: 33) + "a = ?" + String(repeating: ")", count: 33)
        assertError(try query("place", nested, ["1"]), 400, "InvalidQuery")
    }

    func test_BB_085_subfield() throws {
        let ana = try create("user", p(("set-name", "Ana")))
        let bob = try create("user", p(("set-name", "Bob")))
        let a = try create("book", p(("set-author", ana)))
        _ = try create("book", p(("set-author", bob)))
        XCTAssertEqual(try query("book", "where author.name = ?", ["Ana"]).ids, [a])
        XCTAssertEqual(try query("book", "where author.name = ? join author", ["Ana"]).ids, [a])
    }

    func test_BB_086_everyExampleQueryRuns() throws {
        let language = try create("language", p(("set-name", "es")))
        let category = try create("category", p(("set-name", "c")))
        let user = try create("user", p(("set-name", "u")))
        let comment = try create("comment", p(("set-score", "11"), ("set-author", user)))
        let cityA = try create("city", p(("set-name", "Zaragoza")))
        let country = try create("country", [("set-name", ["Spain"]), ("add-languages", [language]), ("add-cities", [cityA])])
        _ = try api.send("PUT", "/data/city/\(cityA)", p(("set-country", country)))
        let item = try create("thing", [("set-type", ["t"]), ("set-start_date", ["5"]), ("set-city", [cityA]),
                                        ("set-name", ["pepe"]), ("set-score", ["3"]), ("set-some-field", ["v"]),
                                        ("set-price", ["1"]), ("set-weight", ["2"]), ("set-title", ["pepe"]),
                                        ("set-author", [user]), ("set-events", [cityA]), ("add-items", [category]),
                                        ("add-cities", [cityA]), ("add-comments", [comment]), ("add-users", [user]),
                                        ("add-offer", [category])])
        _ = try api.send("PUT", "/data/user/\(user)", [("add-favoriteCities", [cityA]), ("add-items", [item])])
        let queries: [(String, [String])] = [
            ("where type=?", ["t"]), ("where type=? and start_date>?", ["t", "1"]), ("where city is ?", [cityA]),
            ("where languages has ?", [language]), ("where this in ?.favoriteCities", ["user/\(user)"]),
            ("where this in ?", [item]), ("where this not in ?", [item]), ("join country sort by name asc", []),
            ("join last 5 cities", []), ("join first 2 items fetch category", []),
            ("join last 5 comments having score > ? fetch author", ["10"]), ("where name like ? and score > ?", ["pepe", "1"]),
            ("where name like ? sort by name desc", ["pepe"]), ("sort by created_at", []), ("where some-field = ?", ["v"]),
            ("where (price<? or price>?) and (weight<? or weight>?)", ["2", "8", "3", "8"]),
            ("where weight>=? and weight<=? sort by weight", ["1", "3"]), ("where this in ?.items join author", ["user/\(user)"]),
            ("where events is ? join users", [cityA]), ("where this in ? join last 100 offer", [item]),
            ("where title like ? join last 5 comments having score > 10 fetch author sort by created_at", ["pepe"]),
        ]
        for (q, params) in queries {
            let entity = q.contains("favoriteCities") ? "city" : (q.hasPrefix("where languages") ? "country" : "thing")
            let r = try query(entity, q, params)
            XCTAssertEqual(r.status, 200, "\(q): \(r.text)")
        }
        XCTAssertEqual(try query("thing", "where title like ? join last 5 comments having score > 10 fetch author sort by created_at",
                                 ["pepe"]).object(user)?["name#t"], .string("u"))
    }

    func test_BB_087_stablePagesOnEqualTimes() throws {
        let ids = try (0..<12).map { _ in try create("item", p(("set-n", "1"))) }
        _ = try BackbeamDatabase(bb.server).query("""
            UPDATE bb_objects SET created_at = 1000 WHERE space = (SELECT id FROM bb_spaces WHERE project = ? AND env = 'dev')
            """, [.text(projectName)])
        var seen: [String] = []
        for offset in [0, 5, 10] {
            let r = try api.send("GET", "/data/item", p(("limit", "5"), ("offset", String(offset))))
            XCTAssertEqual(r["count"]?.int64Value, 12)
            seen += r.ids
        }
        XCTAssertEqual(seen.count, 12)
        XCTAssertEqual(Set(seen), Set(ids))
        XCTAssertEqual(seen, ids.sorted(), "equal times order by id")
    }

    func test_BB_088_limitClamping() throws {
        let small = try BackbeamServer(environment: ["QUARTET_BACKBEAM_MAX_LIMIT": "10"])
        defer { small.stop() }
        let c = small.client()
        for i in 0..<12 { XCTAssertEqual(try c.send("POST", "/data/item", p(("set-n", String(i)))).status, 201) }
        for limit in ["5000", "abc", "-3"] {
            let r = try c.send("GET", "/data/item", p(("limit", limit)))
            XCTAssertEqual(r.ids.count, 10, limit)
            XCTAssertEqual(r["count"]?.int64Value, 12)
        }
        let zero = try c.send("GET", "/data/item", p(("limit", "0")))
        XCTAssertEqual(zero.ids, [])
        XCTAssertEqual(zero.json["objects"]?.objectValue?.count, 0)
        XCTAssertEqual(zero["count"]?.int64Value, 12)
        // The default cap, 1000 objects, on this class's server with the default configuration.
        let client = api!
        let created = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in stride(from: worker, to: 1001, by: 8) {
                if (try? client.send("POST", "/data/item", p(("set-n", String(i)))))?.status == 201 { created.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(created.withLock { $0 }, 1001)
        let capped = try api.send("GET", "/data/item", p(("limit", "5000")))
        XCTAssertEqual(capped.ids.count, 1000)
        XCTAssertEqual(capped.json["objects"]?.objectValue?.count, 1000)
        XCTAssertEqual(capped["count"]?.int64Value, 1001)
    }
}
