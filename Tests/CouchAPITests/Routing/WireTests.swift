import XCTest
import Core
import HTTP
@testable import CouchAPI

/// Query parameters, Accept negotiation, cookies, document rendering and the multipart/mixed layout.
final class WireTests: XCTestCase {
    private func query(_ text: String) throws -> QueryParameters {
        QueryParameters(form: try FormParameters.parse(Substring(text)))
    }

    func testQueryParametersFollowCouchDBsRules() throws {
        let q = try query("a=1&a=2&b=TRUE&c=maybe&n=-1&x=abc&j=%5B1%5D&r=true&s=yes")
        XCTAssertEqual(q.value("a"), "2", "the last occurrence wins")
        XCTAssertEqual(try q.boolean("b"), true)
        XCTAssertThrowsError(try q.boolean("c")) { XCTAssertEqual(($0 as? CouchError)?.reason, #"Invalid boolean parameter: "maybe""#) }
        XCTAssertThrowsError(try q.integer("x")) { XCTAssertEqual(($0 as? CouchError)?.reason, #"Invalid value for integer: "abc""#) }
        XCTAssertThrowsError(try q.nonNegativeInteger("n")) {
            XCTAssertEqual(($0 as? CouchError)?.reason, #"Invalid value for positive integer: "-1""#)
        }
        XCTAssertEqual(try q.json("j")?.serialized(), "[1]")
        XCTAssertTrue(q.flag("r"))
        XCTAssertFalse(q.flag("s"), "document-read options: anything but true is false")
        XCTAssertNil(try q.boolean("absent"))
    }

    func testAcceptNegotiation() {
        XCTAssertTrue(AcceptHeader.accepts(nil, "multipart/mixed"))
        XCTAssertTrue(AcceptHeader.accepts("multipart/mixed", "multipart/mixed"))
        XCTAssertTrue(AcceptHeader.accepts("*/*", "multipart/mixed"))
        XCTAssertTrue(AcceptHeader.accepts("application/json, multipart/*;q=0.5", "multipart/mixed"))
        XCTAssertFalse(AcceptHeader.accepts("application/json", "multipart/mixed"))
        XCTAssertFalse(AcceptHeader.accepts("*/*, multipart/mixed;q=0", "multipart/mixed"))
        XCTAssertFalse(AcceptHeader.accepts("*/*, multipart/*; q=0", "multipart/mixed"))
    }

    func testSessionCookiesRoundTripAndRefuseTampering() throws {
        let key = Array("server-secret-and-salt".utf8)
        let token = SessionCookie.token(user: "admin", time: 0x6B08CA29, key: key)
        XCTAssertFalse(token.contains("="), "base64url without padding")
        let parsed = try XCTUnwrap(SessionCookie.parse(token))
        XCTAssertEqual(parsed.user, "admin")
        XCTAssertEqual(parsed.time, 0x6B08CA29)
        XCTAssertEqual(String(decoding: parsed.message, as: UTF8.self), "admin:6B08CA29", "uppercase hex time")
        XCTAssertEqual(parsed.mac.count, 32)
        XCTAssertTrue(SessionCookie.verify(parsed, key: key))
        XCTAssertFalse(SessionCookie.verify(parsed, key: key + [1]))
        var tampered = Array(token.utf8)
        tampered[2] = tampered[2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        if let other = SessionCookie.parse(String(decoding: tampered, as: UTF8.self)) {
            XCTAssertFalse(SessionCookie.verify(other, key: key))
        }
        for bad in ["", "%%%", "YWRtaW4", Base64.encodeURLSafe(Array("admin:zz:mac".utf8))] {
            XCTAssertNil(SessionCookie.parse(bad), bad)
        }
        XCTAssertEqual(SessionCookie.value(named: "AuthSession", in: "a=b; AuthSession=xyz; c=d"), "xyz")
        XCTAssertNil(SessionCookie.value(named: "AuthSession", in: "XAuthSession=xyz"))
    }

    func testDocumentsAreAssembledFromStoredBytes() {
        XCTAssertEqual(String(decoding: DocumentJSON.render(id: "a\"b", rev: "1-x", body: Array("{}".utf8), deleted: false), as: UTF8.self),
                       "{\"_id\":\"a\\\"b\",\"_rev\":\"1-x\"}\n")
        let full = DocumentJSON.render(id: "d", rev: "2-y", body: Array(#"{"v":1E2,"s":"é"}"#.utf8), deleted: true,
                                       metadata: [("_revisions", .object(["start": .int(2)])), ("_local_seq", .int(7))],
                                       attachments: Array(#"{"a":{"stub":true}}"#.utf8))
        XCTAssertEqual(String(decoding: full, as: UTF8.self),
                       #"{"_id":"d","_rev":"2-y","v":1E2,"s":"é","_deleted":true,"_revisions":{"start":2},"_local_seq":7,"_attachments":{"a":{"stub":true}}}"# + "\n")
    }

    func testMultipartMixedLayout() {
        var multipart = MultipartMixed(boundary: "B")
        multipart.appendDocument(Array("{}".utf8))
        multipart.appendMissing("1-x")
        XCTAssertEqual(multipart.contentType, "multipart/mixed; boundary=\"B\"")
        XCTAssertEqual(String(decoding: multipart.finished(), as: UTF8.self),
                       "--B\r\nContent-Type: application/json\r\n\r\n{}\r\n--B"
                       + "\r\nContent-Type: application/json; error=\"true\"\r\n\r\n{\"missing\":\"1-x\"}\r\n--B--\r\n")
    }

    func testRequestIDsAreTenLowercaseHexDigits() {
        let ids = (0..<100).map { _ in RequestIDs.next() }
        XCTAssertEqual(Set(ids).count, 100)
        XCTAssertTrue(ids.allSatisfy { $0.utf8.count == 10 && $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } })
    }

    func testConfigurationDefaultsAndErrors() throws {
        let defaults = try CouchConfig(JSONObject())
        XCTAssertEqual(defaults, CouchConfig())
        XCTAssertEqual(defaults.mountPath, "/couch")
        let set = try CouchConfig(["rootListen": "127.0.0.1:5984", "corsOrigins": "https://a.example, https://b.example",
                                   "cookieSameSite": "Lax", "decodePlusToSpace": "false"])
        XCTAssertEqual(set.rootListen?.host, "127.0.0.1")
        XCTAssertEqual(set.rootListen?.port, 5984)
        XCTAssertEqual(set.corsOrigins, ["https://a.example", "https://b.example"])
        XCTAssertFalse(set.decodePlusToSpace)
        XCTAssertEqual(try CouchConfig(["rootListen": "[::1]:0"]).rootListen?.host, "::1")
        for (key, value) in [("rootListen", JSON.string("nope")), ("mountPath", .string("/")), ("cookieSameSite", .string("lax")),
                             ("sessionTimeout", .int(0)), ("adminUser", .string("x"))] {
            XCTAssertThrowsError(try CouchConfig([key: value]), key) {
                XCTAssertTrue(($0 as? ConfigError)?.key.hasPrefix("couch.") ?? false)
            }
        }
        XCTAssertThrowsError(try CouchConfig(["corsOrigins": "*", "corsCredentials": true]))
        // Batch limits: defaults of §4.9 and §3.12, configurable, never below 1.
        XCTAssertEqual([defaults.maxBulkDocs, defaults.maxBulkGet, defaults.maxPurgeDocuments, defaults.maxPurgeRevisions,
                        defaults.maxMultipartParts], [10000, 10000, 100, 1000, 1000])
        let limits = try CouchConfig(["maxBulkDocs": .int(5), "maxBulkGet": .int(6), "maxPurgeDocuments": .int(7),
                                      "maxPurgeRevisions": .int(8), "maxMultipartParts": .int(9)])
        XCTAssertEqual([limits.maxBulkDocs, limits.maxBulkGet, limits.maxPurgeDocuments, limits.maxPurgeRevisions,
                        limits.maxMultipartParts], [5, 6, 7, 8, 9])
        for key in ["maxBulkDocs", "maxBulkGet", "maxPurgeDocuments", "maxPurgeRevisions", "maxMultipartParts"] {
            XCTAssertThrowsError(try CouchConfig([key: .int(0)]), key)
        }
    }
}
