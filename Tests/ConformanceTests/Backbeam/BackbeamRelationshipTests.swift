import Foundation
import XCTest
import Core

/// Relationships and joins: BB-060 … BB-069 (BB-068, the schema inverse, is in BackbeamSchemaTests).
final class BackbeamRelationshipTests: BackbeamTestCase {
    /// A post with comments c1, c2, c3 added in separate requests (scores 1, 7, 9).
    private func postWithComments() throws -> (post: String, c: [String]) {
        var comments: [String] = []
        for score in ["1", "7", "9"] { comments.append(try create("comment", p(("set-score", score)))) }
        let post = try create("post", p(("set-title", "p")))
        for c in comments {
            Thread.sleep(forTimeInterval: 0.002)
            XCTAssertEqual(try api.send("PUT", "/data/post/\(post)", [("add-comments", [c])]).status, 200)
        }
        return (post, comments)
    }

    func test_BB_060_toOneRenderings() throws {
        let user = try create("user", p(("set-name", "Ana")))
        let book = try create("book", p(("set-author", user)))
        XCTAssertEqual(try api.send("GET", "/data/book/\(book)").main?["author#r"]?.serialized(),
                       "{\"id\":\"\(user)\",\"type\":\"user\"}")
        let joined = try api.send("GET", "/data/book", p(("q", "join author")))
        XCTAssertEqual(joined.object(book)?["author#r"], .string(user))
        XCTAssertEqual(joined.object(user)?["name#t"], .string("Ana"))
    }

    func test_BB_061_firstAndLastByLinkTime() throws {
        let (post, c) = try postWithComments()
        let last = try api.send("GET", "/data/post/\(post)", p(("joins", "join last 2 comments")))
        XCTAssertEqual(last.main?["comments#r"]?.serialized(), "{\"result\":[\"\(c[2])\",\"\(c[1])\"],\"count\":3}")
        XCTAssertNotNil(last.object(c[2]))
        let first = try api.send("GET", "/data/post/\(post)", p(("joins", "join first 2 comments")))
        XCTAssertEqual(first.main?["comments#r"]?["result"]?.serialized(), "[\"\(c[0])\",\"\(c[1])\"]")
    }

    func test_BB_062_plainJoinCountsOnly() throws {
        let (post, _) = try postWithComments()
        let r = try api.send("GET", "/data/post/\(post)", p(("joins", "join comments")))
        XCTAssertEqual(r.main?["comments#r"]?.serialized(), "{\"result\":[],\"count\":3}")
    }

    func test_BB_063_havingKeepsTheTotalCount() throws {
        let (post, c) = try postWithComments()
        let r = try api.send("GET", "/data/post/\(post)", [("joins", ["join last 5 comments having score > ?"]), ("params", ["5"])])
        XCTAssertEqual(r.main?["comments#r"]?.serialized(), "{\"result\":[\"\(c[2])\",\"\(c[1])\"],\"count\":3}")
    }

    func test_BB_064_fetch() throws {
        let ana = try create("user", p(("set-name", "Ana")))
        let bob = try create("user", p(("set-name", "Bob")))
        var comments: [String] = []
        for author in [ana, bob, ana] { comments.append(try create("comment", p(("set-author", author)))) }
        let post = try create("post", [("add-comments", comments)])
        let r = try api.send("GET", "/data/post/\(post)", p(("joins", "join last 5 comments fetch author")))
        XCTAssertEqual(r.status, 200, r.text)
        for (comment, author) in zip(comments, [ana, bob, ana]) {
            XCTAssertEqual(r.object(comment)?["author#r"], .string(author))
        }
        XCTAssertEqual(r.object(ana)?["name#t"], .string("Ana"))
        XCTAssertEqual(r.object(bob)?["name#t"], .string("Bob"))
        XCTAssertEqual(r.json["objects"]?.objectValue?.count, 6)
    }

    func test_BB_065_removeAndReAdd() throws {
        let (post, c) = try postWithComments()
        XCTAssertEqual(try api.send("PUT", "/data/post/\(post)", [("rem-comments", [c[0]])]).status, 200)
        XCTAssertEqual(try api.send("GET", "/data/post/\(post)", p(("joins", "join comments"))).main?["comments#r"]?["count"]?.int64Value, 2)
        let stranger = try create("comment", p(("set-score", "0")))
        XCTAssertEqual(try api.send("PUT", "/data/post/\(post)", [("rem-comments", [stranger])]).status, 200)
        XCTAssertEqual(try api.send("PUT", "/data/post/\(post)", [("add-comments", [c[1]])]).status, 200)
        let r = try api.send("GET", "/data/post/\(post)", p(("joins", "join first 5 comments")))
        XCTAssertEqual(r.main?["comments#r"]?.serialized(), "{\"result\":[\"\(c[1])\",\"\(c[2])\"],\"count\":2}")
    }

    func test_BB_066_wrongCommandForTheRelationship() throws {
        let (post, c) = try postWithComments()
        let user = try create("user", p(("set-name", "x")))
        let book = try create("book", p(("set-author", user)))
        assertError(try api.send("PUT", "/data/post/\(post)", p(("set-comments", c[0]))), 400, "InvalidParameters")
        assertError(try api.send("PUT", "/data/book/\(book)", [("add-author", [user])]), 400, "InvalidParameters")
        assertError(try api.send("PUT", "/data/post/\(post)", p(("del-comments", "-"))), 400, "InvalidParameters")
    }

    func test_BB_067_deletingCascades() throws {
        let (post, c) = try postWithComments()
        XCTAssertEqual(try api.send("DELETE", "/data/comment/\(c[2])").status, 200)
        XCTAssertEqual(try api.send("GET", "/data/post/\(post)", p(("joins", "join comments"))).main?["comments#r"]?["count"]?.int64Value, 2)
        let author = try create("user", p(("set-name", "x")))
        let book = try create("book", p(("set-author", author)))
        XCTAssertEqual(try api.send("DELETE", "/data/user/\(author)").status, 200)
        let r = try api.send("GET", "/data/book/\(book)")
        XCTAssertNil(r.main?["author#r"], r.text)
    }

    func test_BB_069_neverWrittenAndEmptyJoins() throws {
        let book = try create("book", p(("set-title", "t")))
        _ = try create("book", p(("set-author", try create("user", p(("set-name", "a"))))))
        let r = try api.send("GET", "/data/book/\(book)", p(("joins", "join reviews join author")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.main?["reviews#r"]?.serialized(), "{\"result\":[],\"count\":0}")
        XCTAssertNil(r.main?["author#r"])
    }
}
