import XCTest
import Core
@testable import ParseAPI

/// Updates apply their dotted paths as a tree: each Object on a path is changed once, in place, and the keys
/// it loses go in one pass. These tests pin the results and the refusals.
final class UpdatePathsTests: XCTestCase {
    private func request(_ body: String) throws -> WriteRequest {
        guard let object = try JSONParser.parse(body).objectValue else { throw ParseError.invalidJSON }
        return try WriteRequest.update(object, className: "C")
    }

    private func apply(_ body: String, to stored: String) throws -> (JSON, JSON) {
        var data = try XCTUnwrap(try JSONParser.parse(stored).objectValue)
        let echo = try UpdatePaths(try request(body).operations).apply(to: &data, schema: ClassSchema(className: "C"))
        return (.object(data), .object(echo))
    }

    func testPathsSharingObjectsAllApplyAndEchoNested() throws {
        let (data, echo) = try apply("""
            {"o.a":1,"o.b.c":{"__op":"Increment","amount":2},"o.gone":{"__op":"Delete"},"t":"x","o.b.d":{"__op":"Add","objects":[1]},\
            "n.m":true,"top":{"__op":"Delete"}}
            """, to: #"{"top":1,"o":{"gone":1,"keep":2,"b":{"c":1}},"t":"y"}"#)
        XCTAssertEqual(data, try JSONParser.parse(#"{"o":{"keep":2,"b":{"c":3,"d":[1]},"a":1},"t":"x","n":{"m":true}}"#))
        XCTAssertEqual(data.objectValue?.keys, ["o", "t", "n"])
        XCTAssertEqual(data["o"]?.objectValue?.keys, ["keep", "b", "a"])
        XCTAssertEqual(echo, try JSONParser.parse(#"{"o":{"b":{"c":3,"d":[1]}}}"#))
    }

    func testAPathInsideAnotherPathIsAmbiguousAtEveryDepth() {
        for body in [#"{"a":1,"a.b":2}"#, #"{"a.b":2,"a":1}"#, #"{"a.b":1,"a.b.c":2}"#, #"{"a.b.c":2,"a.b":1}"#,
                     #"{"x.y.z":1,"x.y":{"__op":"Delete"}}"#] {
            XCTAssertThrowsError(try request(body), body) {
                XCTAssertEqual($0 as? ParseError, ParseError(107, "Cannot modify a field and a key inside it in the same request"))
            }
        }
        XCTAssertNoThrow(try request(#"{"a.b":1,"a.c":2,"a.d.e":3,"b":4}"#))
    }

    func testDottedPathsHaveAtMostOneHundredSegments() throws {
        let hundred = (0..<100).map { "s\($0)" }.joined(separator: ".")
        let (data, _) = try apply("{\"\(hundred)\":1}", to: "{}")
        var depth = 0
        var cursor: JSON? = data
        while let o = cursor?.objectValue, let first = o.values.first { depth += 1; cursor = first }
        XCTAssertEqual(depth, 100)
        XCTAssertThrowsError(try request("{\"\(hundred).more\":1}")) {
            XCTAssertEqual($0 as? ParseError, ParseError(107, "A dotted path may have at most 100 segments."))
        }
    }

    func testAValueInTheWayIsRefused() {
        XCTAssertThrowsError(try apply(#"{"a.b.c":1}"#, to: #"{"a":{"b":5}}"#)) { XCTAssertEqual(($0 as? ParseError)?.code, 111) }
    }

    func testManyDeletionsInAWideObject() throws {
        let stored = "{\"o\":{" + (0..<20_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}}"
        let body = "{" + (0..<1_000).map { "\"o.k\($0 * 2)\":{\"__op\":\"Delete\"}" }.joined(separator: ",") + "}"
        let (data, echo) = try apply(body, to: stored)
        let keys = data["o"]?.objectValue?.keys ?? []
        XCTAssertEqual(keys.count, 19_000)
        XCTAssertEqual(Array(keys.prefix(3)), ["k1", "k3", "k5"])
        XCTAssertEqual(keys.last, "k19999")
        XCTAssertEqual(data["o"]?["k1999"], 1999)
        XCTAssertNil(data["o"]?["k1998"])
        XCTAssertEqual(echo, [:])
    }
}
