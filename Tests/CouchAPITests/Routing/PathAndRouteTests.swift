import XCTest
import Core
import HTTP
@testable import CouchAPI

/// Path parsing and dispatch (spec §1.4).
final class PathAndRouteTests: XCTestCase {
    private func split(_ raw: String, plus: Bool = true) throws -> [String] {
        try PathSegments.split(Substring(raw), plusIsSpace: plus).map(\.text)
    }

    private func route(_ raw: String) throws -> CouchRoute {
        try CouchRoute.resolve(PathSegments.split(Substring(raw), plusIsSpace: true))
    }

    func testEmptySegmentsAreDroppedAndEachSegmentIsDecodedAlone() throws {
        XCTAssertEqual(try split(""), [])
        XCTAssertEqual(try split("/"), [])
        XCTAssertEqual(try split("//db//doc/"), ["db", "doc"])
        XCTAssertEqual(try split("/couchdb-python%2F12/a%2Fb"), ["couchdb-python/12", "a/b"])
        XCTAssertEqual(try split("/test+doc/x%2By"), ["test doc", "x+y"])
        XCTAssertEqual(try split("/test+doc", plus: false), ["test+doc"])
        XCTAssertEqual(try split("/f%C3%B8%C3%B8"), ["føø"])
    }

    func testBadEscapesAndInvalidUTF8() throws {
        for bad in ["/db/%", "/db/%2", "/db/%zz", "/db/a%G0"] {
            XCTAssertThrowsError(try split(bad), bad) { XCTAssertEqual(($0 as? CouchError)?.error, "bad_request") }
        }
        let segment = try XCTUnwrap(PathSegments.split("/%FF", plusIsSpace: true).first)
        XCTAssertEqual(segment.invalidBytes, [0xFF])
        XCTAssertThrowsError(try segment.validText())
        XCTAssertNil(try PathSegments.split("/a%00b", plusIsSpace: true).first?.invalidBytes)
    }

    func testServerRoutesAndOutOfScopeOnes() throws {
        XCTAssertEqual(try route(""), .welcome)
        XCTAssertEqual(try route("/_up"), .up)
        XCTAssertEqual(try route("/_all_dbs"), .allDatabases)
        XCTAssertEqual(try route("/_uuids"), .uuids)
        XCTAssertEqual(try route("/_session"), .session)
        XCTAssertEqual(try route("/_config/x/y"), .notImplemented(feature: "_config"))
        XCTAssertEqual(try route("/_node/_local/_config"), .notImplemented(feature: "_node"))
        for name in ["/_replicator", "/_foo", "/_up/x", "/_usersx"] {
            XCTAssertThrowsError(try route(name)) { XCTAssertEqual(($0 as? CouchError)?.error, "illegal_database_name") }
        }
        // The user database is a database (§3.10).
        XCTAssertEqual(try route("/_users"), .database("_users"))
        XCTAssertEqual(try route("/_users/org.couchdb.user:bob"), .document("_users", id: PathSegment("org.couchdb.user:bob")))
        XCTAssertEqual(try route("/_users/_security"), .databaseFeature("_users", feature: "_security"))
    }

    func testDatabaseResources() throws {
        XCTAssertEqual(try route("/db"), .database("db"))
        XCTAssertEqual(try route("/db/_ensure_full_commit"), .ensureFullCommit("db"))
        XCTAssertEqual(try route("/db/_compact"), .compact("db"))
        XCTAssertEqual(try route("/db/_compact/dd"), .compactDesign("db", designName: "dd"))
        XCTAssertEqual(try route("/db/_view_cleanup"), .viewCleanup("db"))
        XCTAssertEqual(try route("/db/_revs_limit"), .revsLimit("db"))
        XCTAssertEqual(try route("/db/_changes"), .databaseFeature("db", feature: "_changes"))
        XCTAssertEqual(try route("/db/_all_docs/queries"), .notImplemented(feature: "_all_docs/queries"))
        XCTAssertEqual(try route("/db/_find"), .notImplemented(feature: "_find"))
        XCTAssertEqual(try route("/db/_index/_bulk_delete"), .notImplemented(feature: "_index"))
    }

    func testDocumentsDesignAndLocalDocumentsAndAttachments() throws {
        XCTAssertEqual(try route("/db/doc"), .document("db", id: PathSegment("doc")))
        XCTAssertEqual(try route("/db/_other"), .document("db", id: PathSegment("_other")))
        XCTAssertEqual(try route("/db/_design/x"), .document("db", id: PathSegment("_design/x")))
        XCTAssertEqual(try route("/db/_design%2Fx"), .document("db", id: PathSegment("_design/x")))
        XCTAssertEqual(try route("/db/_design/x/_view/v"), .notImplemented(feature: "_design/{name}/_view"))
        XCTAssertEqual(try route("/db/_design/x/a/b"),
                       .attachment("db", documentID: PathSegment("_design/x"), name: [PathSegment("a"), PathSegment("b")]))
        XCTAssertEqual(try route("/db/_local/x"), .localDocument("db", id: "_local/x"))
        XCTAssertEqual(try route("/db/_local%2Fy"), .localDocument("db", id: "_local/y"))
        XCTAssertEqual(try route("/db/doc/dir/file.txt"),
                       .attachment("db", documentID: PathSegment("doc"), name: [PathSegment("dir"), PathSegment("file.txt")]))
        for path in ["/db/_local", "/db/_local%2F"] {
            XCTAssertThrowsError(try route(path)) { XCTAssertEqual(($0 as? CouchError)?.reason, "Invalid _local document id.") }
        }
        for path in ["/db/_local/x/att", "/db/_local%2Fx/att"] {
            XCTAssertThrowsError(try route(path)) { XCTAssertEqual($0 as? CouchError, .localAttachments) }
        }
    }

    func testAllowedMethodsMatchTheAllowLists() throws {
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .copy, .options, .patch]
        let routes: [CouchRoute] = [.welcome, .session, .database("d"), .ensureFullCommit("d"), .revsLimit("d"),
                                    .document("d", id: PathSegment("x")), .localDocument("d", id: "_local/x"),
                                    .attachment("d", documentID: PathSegment("x"), name: [PathSegment("a")]),
                                    .databaseFeature("d", feature: "_all_docs"), .databaseFeature("d", feature: "_local_docs"),
                                    .databaseFeature("d", feature: "_bulk_docs"), .databaseFeature("d", feature: "_bulk_get"),
                                    .databaseFeature("d", feature: "_revs_diff"), .databaseFeature("d", feature: "_purge")]
        for route in routes {
            let listed = route.allowedMethods.split(separator: ",").map(String.init)
            for method in methods {
                XCTAssertEqual(route.allows(method), listed.contains(method.rawValue), "\(route) \(method)")
            }
        }
        XCTAssertTrue(CouchRoute.notImplemented(feature: "x").allows(.patch))
    }

    func testLocationSegmentsAreEncodedCompletely() {
        XCTAssertEqual(PathEncoding.segment("a b/c+d"), "a%20b%2Fc%2Bd")
        XCTAssertEqual(PathEncoding.segment("a\r\nSet-Cookie: x=y"), "a%0D%0ASet-Cookie%3A%20x%3Dy")
        XCTAssertEqual(PathEncoding.segment("Az09-._~"), "Az09-._~")
        XCTAssertEqual(PathEncoding.segment("é"), "%C3%A9")
        // The appending form writes the same bytes, plain or escaped.
        for text in ["a b/c+d", "a\r\nSet-Cookie: x=y", "Az09-._~", "é", "", "new123-45", "_design", "x%y", "~~"] {
            var out = Array("pre".utf8)
            PathEncoding.appendSegment(text, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "pre" + PathEncoding.segment(text), text)
        }
    }
}
