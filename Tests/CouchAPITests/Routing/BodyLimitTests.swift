import XCTest
import Core
import HTTP
@testable import CouchAPI

/// `couch.maxJsonRequestSize` and which body gets which limit (`CouchBodyLimit`, §4.9).
final class BodyLimitTests: XCTestCase {
    private func head(_ method: HTTPMethod, _ path: String, length: Int?, contentType: String? = "application/json") -> RequestHead {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        return RequestHead(method: method, target: path, version: .http1_1, headers: headers,
                           framing: length.map { .contentLength($0) } ?? .chunked, expectsContinue: false, keepAlive: true)
    }

    func testConfigKey() throws {
        let defaults = CouchConfig()
        XCTAssertEqual(defaults.maxJsonRequestSize, 64 << 20)
        XCTAssertEqual(defaults.jsonRequestLimit, 64 << 20)
        XCTAssertEqual(try CouchConfig(["maxJsonRequestSize": .int(5000)]).maxJsonRequestSize, 5000)
        XCTAssertThrowsError(try CouchConfig(["maxJsonRequestSize": .int(1023)])) {
            XCTAssertEqual(($0 as? ConfigError)?.key, "couch.maxJsonRequestSize")
        }
        // Never above the request limit.
        let lower = try CouchConfig(["maxRequestSize": .int(4096), "maxJsonRequestSize": .int(1 << 20)])
        XCTAssertEqual(lower.jsonRequestLimit, 4096)
        XCTAssertNotEqual(try CouchConfig(["maxJsonRequestSize": .int(5000)]), defaults)
    }

    func testHeadLimitByResource() throws {
        var config = CouchConfig()
        config.maxJsonRequestSize = 1000
        config.maxRequestSize = 1 << 20
        func limit(_ head: RequestHead) -> Int { CouchBodyLimit.limit(head, rawPath: head.target, mount: "/couch", config: config) }
        // JSON resources: the JSON limit once the body may exceed it (declared or chunked).
        for path in ["/couch/db/_bulk_docs", "/couch/db/doc", "/couch/db", "/couch/db/_revs_diff", "/couch/db/_local/x",
                     "/couch/%00bad/x"] {
            XCTAssertEqual(limit(head(.post, path, length: 1001)), 1000, path)
            XCTAssertEqual(limit(head(.post, path, length: nil)), 1000, path)
        }
        // Within it nothing needs deciding: the declared length is already under both limits.
        XCTAssertEqual(limit(head(.post, "/couch/db/_bulk_docs", length: 1000)), 1 << 20)
        // Attachments (any method, any type) and multipart bodies stream to blobs: the request limit.
        XCTAssertEqual(limit(head(.put, "/couch/db/doc/file.bin", length: 5000, contentType: "image/png")), 1 << 20)
        XCTAssertEqual(limit(head(.post, "/couch/db/doc/a/b", length: nil, contentType: nil)), 1 << 20)
        XCTAssertEqual(limit(head(.put, "/couch/db/doc", length: 5000, contentType: "Multipart/Related; boundary=x")), 1 << 20)
        // Without a prefix (the root listener).
        XCTAssertEqual(CouchBodyLimit.limit(head(.put, "/db/doc/att", length: 5000), rawPath: "/db/doc/att", mount: "",
                                            config: config), 1 << 20)
        XCTAssertEqual(CouchBodyLimit.limit(head(.put, "/db/doc", length: 5000), rawPath: "/db/doc", mount: "",
                                            config: config), 1000)
        // A JSON limit at or above the request limit changes nothing.
        config.maxJsonRequestSize = 1 << 21
        XCTAssertEqual(limit(head(.post, "/couch/db/_bulk_docs", length: nil)), 1 << 20)
    }

    func testDecodedLimitByRoute() throws {
        var config = CouchConfig()
        config.maxJsonRequestSize = 1000
        var json = HTTPHeaders()
        json.add("Content-Type", "application/json")
        var multipart = HTTPHeaders()
        multipart.add("Content-Type", "multipart/related; boundary=\"b\"")
        XCTAssertEqual(CouchBodyLimit.limit(route: .databaseFeature("db", feature: "_bulk_docs"), headers: json, config: config), 1000)
        XCTAssertEqual(CouchBodyLimit.limit(route: .database("db"), headers: json, config: config), 1000)
        XCTAssertEqual(CouchBodyLimit.limit(route: .document("db", id: PathSegment("d")),
                                            headers: multipart, config: config), 1 << 30)
    }
}
