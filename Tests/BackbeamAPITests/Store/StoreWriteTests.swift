import XCTest
import Core
@testable import BackbeamAPI

final class StoreWriteTests: XCTestCase {
    func testCreateRendersTypedFields() throws {
        let f = try BackbeamStoreFixture()
        let user = try f.create("user", [("set-name", "Ana")])
        let place = try f.create("place", [("set-name", "Bar Pepe"), ("set-price", "100"), ("set-rating", "3.5"),
                                           ("set-when", "2014-05-01"), ("set-meta", "{\"a\":[1,2]}"),
                                           ("set-loc", "41.648823,-0.889085,0.000000|(null)"), ("set-author", user.id),
                                           ("set-flag#b", "1"), ("set-born#d", "1368520407344")])
        XCTAssertEqual(place.id.count, 12)
        let page = try f.query("place")
        let json = try XCTUnwrap(try f.object(page, place.id))
        XCTAssertEqual(json["type"], .string("place"))
        XCTAssertEqual(json["name#t"], .string("Bar Pepe"))
        XCTAssertEqual(json["price#n"]?.numberValue?.text, "100")
        XCTAssertEqual(json["rating#n"]?.numberValue?.text, "3.5")
        XCTAssertEqual(json["when#c"], .string("2014-05-01"))
        XCTAssertEqual(json["meta#j"]?.serialized(), "{\"a\":[1,2]}")
        XCTAssertEqual(json["loc#l"]?.serialized(), "{\"lat\":41.648823,\"lon\":-0.889085,\"hash\":\"ezrkgvb\"}")
        XCTAssertEqual(json["author#r"]?.serialized(), "{\"id\":\"\(user.id)\",\"type\":\"user\"}")
        XCTAssertEqual(json["flag#b"], .bool(true))
        XCTAssertEqual(json["born#d"]?.numberValue?.text, "1368520407344")
        XCTAssertEqual(json["created_at"], json["updated_at"])
    }

    func testUpdateIncrementsAndDeletes() throws {
        let f = try BackbeamStoreFixture()
        let a = try f.create("item", [("set-name", "x"), ("incr-visits", "1")])
        _ = try f.update("item", a.id, [("incr-visits", "2.5"), ("del-name", "-")])
        let json = try XCTUnwrap(try f.object(try f.query("item"), a.id))
        XCTAssertEqual(json["visits#n"]?.numberValue?.text, "3.5")
        XCTAssertNil(json["name#t"])
        XCTAssertThrowsError(try f.update("item", a.id, [("set-visits", "abc")]))
        XCTAssertThrowsError(try f.update("item", a.id, [("incr-name", "1")]))
        XCTAssertNil(try f.update("item", "nosuch00000", [("set-name", "y")]))
    }

    func testAtomicRequest() throws {
        let f = try BackbeamStoreFixture()
        let a = try f.create("item", [("set-name", "x"), ("set-price", "1")])
        XCTAssertThrowsError(try f.update("item", a.id, [("set-name", "changed"), ("set-price", "abc")]))
        let json = try XCTUnwrap(try f.object(try f.query("item"), a.id))
        XCTAssertEqual(json["name#t"], .string("x"))
    }

    func testToManyJoinsAndCascade() throws {
        let f = try BackbeamStoreFixture()
        let c1 = try f.create("comment", [("set-score", "1")])
        let c2 = try f.create("comment", [("set-score", "7")])
        let c3 = try f.create("comment", [("set-score", "9")])
        let post = try f.create("post", [("add-comments", c1.id)])
        _ = try f.update("post", post.id, [("add-comments", c2.id)])
        _ = try f.update("post", post.id, [("add-comments", c3.id)])
        var body = try f.listJSON("post", "join last 2 comments")
        XCTAssertEqual(body["objects"]?[post.id]?["comments#r"]?.serialized(),
                       "{\"result\":[\"\(c3.id)\",\"\(c2.id)\"],\"count\":3}")
        body = try f.listJSON("post", "join first 2 comments")
        XCTAssertEqual(body["objects"]?[post.id]?["comments#r"]?["result"]?.serialized(), "[\"\(c1.id)\",\"\(c2.id)\"]")
        body = try f.listJSON("post", "join last 5 comments having score > ?", ["5"])
        XCTAssertEqual(body["objects"]?[post.id]?["comments#r"]?.serialized(),
                       "{\"result\":[\"\(c3.id)\",\"\(c2.id)\"],\"count\":3}")
        XCTAssertNotNil(try f.store.delete(space: f.space, entity: "comment", id: c3.id))
        body = try f.listJSON("post", "join comments")
        XCTAssertEqual(body["objects"]?[post.id]?["comments#r"]?.serialized(), "{\"result\":[],\"count\":2}")
    }

    func testToOneJoinAndDeleteClearsReference() throws {
        let f = try BackbeamStoreFixture()
        let author = try f.create("user", [("set-name", "Ana")])
        let book = try f.create("book", [("set-author", author.id), ("set-title", "T")])
        var body = try f.listJSON("book", "join author")
        XCTAssertEqual(body["objects"]?[book.id]?["author#r"], .string(author.id))
        XCTAssertEqual(body["objects"]?[author.id]?["name#t"], .string("Ana"))
        body = try f.listJSON("book", "where author.name = ?", ["Ana"])
        XCTAssertEqual(body["ids"]?.arrayValue?.count, 1)
        _ = try f.store.delete(space: f.space, entity: "user", id: author.id)
        body = try f.listJSON("book")
        XCTAssertNil(body["objects"]?[book.id]?["author#r"])
    }

    func testQueriesSortAndCount() throws {
        let f = try BackbeamStoreFixture()
        for w in [6, 2, 4] { try f.create("item", [("set-weight", String(w))]) }
        var page = try f.query("item", "where weight>=? and weight<=?", ["3", "5"])
        XCTAssertEqual(page.count, 1)
        page = try f.query("item", "sort by weight desc", limit: 2)
        XCTAssertEqual(page.count, 3)
        let weights = try page.ids.map { try f.object(page, $0)?["weight#n"]?.numberValue?.text }
        XCTAssertEqual(weights, ["6", "4"])
    }

    func testLikeAndGeo() throws {
        let f = try BackbeamStoreFixture()
        let a = try f.create("place", [("set-name", "Bar Pepe Zaragoza"), ("set-loc", "41.65,-0.88,0|x")])
        let b = try f.create("place", [("set-name", "Casa Pepe"), ("set-loc", "41.7,-0.9,0|y")])
        _ = try f.create("place", [("set-name", "Other"), ("set-loc", "Calle Mayor 1")])
        var page = try f.query("place", "where name like ?", ["pepe zaragoza"])
        XCTAssertEqual(page.ids, [a.id, b.id])
        page = try f.query("place", "where name like ?", ["\" OR * NEAR("])
        XCTAssertEqual(page.ids, [])
        page = try f.query("place", geo: .near(field: "loc", lat: 41.65, lon: -0.88))
        XCTAssertEqual(page.ids, [a.id, b.id])
        XCTAssertEqual(page.distances?.first, 0)
        page = try f.query("place", geo: .bounding(field: "loc", swLat: 41.6, swLon: -0.89, neLat: 41.66, neLon: -0.87))
        XCTAssertEqual(page.ids, [a.id])
    }

    func testCollectionConstraintWithIdentities() throws {
        let f = try BackbeamStoreFixture()
        let ana = try f.create("user", [("set-name", "Ana")])
        let bob = try f.create("user", [("set-name", "Bob")])
        let cy = try f.create("user", [("set-name", "Cy")])
        // Only values are captured: the job is released on the writer thread, which must not be where the
        // fixture (and its storage) is freed.
        let space = f.space.value, anaSeq = ana.seq, bobSeq = bob.seq
        try f.storage.writeAndWait { ctx in
            try ctx.db.run("INSERT INTO bb_identities (space, provider, provider_id, object, linked_at) VALUES (?, 'tw', '123', ?, 0)",
                           [.integer(space), .integer(anaSeq)])
            try ctx.db.run("INSERT INTO bb_users (object, space, email, email_folded) VALUES (?, ?, 'Bob@Example.com', 'bob@example.com')",
                           [.integer(bobSeq), .integer(space)])
        }
        var page = try f.query("user", "where this in ?", ["tw:123\nemail:BOB@example.com\n\(cy.id)"])
        XCTAssertEqual(Set(page.ids), [ana.id, bob.id, cy.id])
        page = try f.query("user", "where this not in ?", ["tw:123"])
        XCTAssertEqual(Set(page.ids), [bob.id, cy.id])
    }
}

/// The data-model limits of §4.3.
final class StoreLimitTests: XCTestCase {
    func testEntityAndFieldLimits() throws {
        let f = try BackbeamStoreFixture()
        let limits = ModelLimits(maxEntities: 2, maxFieldsPerEntity: 2)
        func create(_ entity: String, _ commands: [(String, String)]) throws -> ObjectRecord {
            let set = try CommandParser.parse(BackbeamParameters(scalars: commands), entity: entity)
            return try f.store.create(WriteRequest(space: f.space, entity: entity, commands: set, now: f.tick(), limits: limits))
        }
        _ = try create("a", [("set-x", "1"), ("set-y", "2")])
        _ = try create("b", [])
        XCTAssertThrowsError(try create("c", [])) { error in
            XCTAssertEqual((error as? BackbeamError)?.status, .invalidParameters)
        }
        XCTAssertThrowsError(try create("a", [("set-z", "3")]))
        XCTAssertNoThrow(try create("a", [("set-x", "4")]), "known fields stay writable")
        XCTAssertEqual(try f.query("a").count, 2, "the refused requests stored nothing")
        XCTAssertNil(try f.store.catalogue(space: f.space).entities["c"])
    }
}

/// Pages written while their rows are read, and the fall back when a main object was already written as
/// another row's joined target.
final class StoreStreamingTests: XCTestCase {
    func testMainObjectsThatAreAlsoTargetsKeepTheirJoins() throws {
        let f = try BackbeamStoreFixture()
        let u3 = try f.create("user", [("set-name", "c")])
        let u2 = try f.create("user", [("set-name", "b"), ("set-friend", u3.id)])
        let u1 = try f.create("user", [("set-name", "a"), ("set-friend", u2.id)])
        let body = try f.listJSON("user", "where name >= ? join friend sort by name", ["a"])
        XCTAssertEqual(body["ids"]?.serialized(), "[\"\(u1.id)\",\"\(u2.id)\",\"\(u3.id)\"]")
        XCTAssertEqual(body["objects"]?[u1.id]?["friend#r"], .string(u2.id))
        XCTAssertEqual(body["objects"]?[u2.id]?["friend#r"], .string(u3.id))
        XCTAssertEqual(body["objects"]?.objectValue?.count, 3)
        // No conflict: written as rows are read, the same shapes.
        let streamed = try f.listJSON("user", "where name = ? join friend", ["a"])
        XCTAssertNotNil(try f.query("user", "where name = ? join friend", ["a"]).renderedObjects)
        XCTAssertEqual(streamed["objects"]?[u1.id]?["friend#r"], .string(u2.id))
        XCTAssertEqual(streamed["objects"]?[u2.id]?["friend#r"]?["id"], .string(u3.id), "a target is written unjoined")
        XCTAssertNil(try f.query("user", "join first 2 friend").renderedObjects, "to-many style joins take the general path")
        // The targets of a join without `having` are written after the page's rows, so a main object that is
        // also a target never needs the general path.
        XCTAssertNotNil(try f.query("user", "where name >= ? join friend sort by name", ["a"]).renderedObjects)
    }

    /// Targets shared by several rows are read once and written once, complete (their own references
    /// unjoined), after the main objects; a join with `having` next to one without keeps its per-row rule.
    func testSharedTargetsAreWrittenOnceAfterTheRows() throws {
        let f = try BackbeamStoreFixture()
        let ana = try f.create("user", [("set-name", "Ana")])
        let bob = try f.create("user", [("set-name", "Bob"), ("set-friend", ana.id)])
        var books: [ObjectRecord] = []
        for i in 0..<6 {
            books.append(try f.create("book", [("set-n#n", "\(i)"), ("set-author", i % 3 == 0 ? ana.id : bob.id),
                                               ("set-editor", bob.id)]))
        }
        let page = try f.query("book", "where n >= ? join author", ["0"])
        let rendered = try XCTUnwrap(page.renderedObjects)
        let text = String(decoding: rendered, as: UTF8.self)
        // Each object once: six books, then the two authors in the order first reached.
        let keys = try JSONParser.parse(Array(("{" + text + "}").utf8)).objectValue?.pairs.map(\.key) ?? []
        XCTAssertEqual(keys, books.map(\.id) + [ana.id, bob.id])
        XCTAssertEqual(text.components(separatedBy: "\"\(bob.id)\":{").count, 2, "bob written once")
        XCTAssertLessThan(try XCTUnwrap(text.range(of: "\"\(books[5].id)\":{")).lowerBound,
                          try XCTUnwrap(text.range(of: "\"\(ana.id)\":{")).lowerBound)
        XCTAssertLessThan(try XCTUnwrap(text.range(of: "\"\(ana.id)\":{")).lowerBound,
                          try XCTUnwrap(text.range(of: "\"\(bob.id)\":{")).lowerBound)
        var body = try f.listJSON("book", "where n >= ? join author", ["0"])
        XCTAssertEqual(body["count"]?.numberValue?.text, "6")
        for (i, book) in books.enumerated() {
            XCTAssertEqual(body["objects"]?[book.id]?["author#r"], .string(i % 3 == 0 ? ana.id : bob.id))
            XCTAssertEqual(body["objects"]?[book.id]?["editor#r"]?["id"], .string(bob.id), "not joined: a reference")
        }
        XCTAssertEqual(body["objects"]?[bob.id]?["name#t"], .string("Bob"))
        XCTAssertEqual(body["objects"]?[bob.id]?["friend#r"]?["id"], .string(ana.id), "a target's references stay whole")
        XCTAssertEqual(body["objects"]?[ana.id]?["name#t"], .string("Ana"))
        // A join with `having` (targets read with their rows) next to one without.
        body = try f.listJSON("book", "where n >= ? join author having name = ? join editor", ["0", "Ana"])
        XCTAssertNotNil(try f.query("book", "where n >= ? join author having name = ? join editor", ["0", "Ana"]).renderedObjects)
        XCTAssertEqual(body["objects"]?.objectValue?.count, 8)
        for (i, book) in books.enumerated() {
            if i % 3 == 0 {
                XCTAssertEqual(body["objects"]?[book.id]?["author#r"], .string(ana.id))
            } else {
                XCTAssertEqual(body["objects"]?[book.id]?["author#r"]?["id"], .string(bob.id), "filtered out by having")
            }
            XCTAssertEqual(body["objects"]?[book.id]?["editor#r"], .string(bob.id))
        }
        XCTAssertEqual(body["objects"]?[bob.id]?["friend#r"]?["id"], .string(ana.id))
    }
}
