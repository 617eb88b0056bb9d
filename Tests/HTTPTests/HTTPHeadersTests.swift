import XCTest
@testable import HTTP

final class HTTPHeadersTests: XCTestCase {
    func testLookupIsCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Set-Cookie": "a=1"]
        headers.add("set-cookie", "b=2")
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(headers.values("SET-COOKIE"), ["a=1", "b=2"])
        XCTAssertTrue(headers.contains("CONTENT-TYPE"))
        XCTAssertFalse(headers.contains("Content-Typf"))
        XCTAssertNil(headers["Missing"])
    }

    func testSetReplacesAllKeepingFirstPosition() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3"), ("C", "4")])
        headers.set("A", "9")
        XCTAssertEqual(headers.map(\.name), ["A", "B", "C"])
        XCTAssertEqual(headers["a"], "9")
        headers.set("D", "5")
        XCTAssertEqual(headers.map(\.name).last, "D")
    }

    func testSetOnAbsentOnceAndRepeatedNames() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2")])
        headers.set("c", "3")
        XCTAssertEqual(headers.entries.map(\.name), ["A", "B", "c"])
        // Present once: replaced in place, with the new spelling of the name.
        headers.set("b", "9")
        XCTAssertEqual(headers.entries.map { "\($0.name)=\($0.value)" }, ["A=1", "b=9", "c=3"])
        // Repeated further on: every later one goes.
        headers.add("A", "4")
        headers.add("x", "5")
        headers.add("a", "6")
        headers.set("A", "7")
        XCTAssertEqual(headers.entries.map { "\($0.name)=\($0.value)" }, ["A=7", "b=9", "c=3", "x=5"])
        XCTAssertEqual(Array(headers).map(\.value), ["7", "9", "3", "5"])
        XCTAssertEqual(headers, HTTPHeaders([("a", "7"), ("B", "9"), ("C", "3"), ("X", "5")]))
        XCTAssertNotEqual(headers, HTTPHeaders([("a", "7"), ("B", "9"), ("C", "3")]))
        XCTAssertEqual(headers.description, "A: 7\nb: 9\nc: 3\nx: 5")
    }

    func testRemove() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers.remove("A")
        XCTAssertEqual(headers.count, 1)
        XCTAssertEqual(headers["b"], "2")
    }

    func testNamesEqualFoldsOnlyLetters() {
        XCTAssertTrue(HTTPHeaders.namesEqual("X-Abc", "x-aBC"))
        // "@" (0x40) and "`" (0x60) differ only in bit 0x20 but are not letters.
        XCTAssertFalse(HTTPHeaders.namesEqual("@", "`"))
        XCTAssertFalse(HTTPHeaders.namesEqual("[", "{"))
        XCTAssertFalse(HTTPHeaders.namesEqual("ab", "abc"))
    }

    func testStatusPhrases() {
        XCTAssertEqual(HTTPStatus.ok.reasonPhrase, "OK")
        XCTAssertEqual(HTTPStatus.headerFieldsTooLarge.code, 431)
        XCTAssertEqual(HTTPStatus(code: 499).reasonPhrase, "Unknown")
        XCTAssertEqual(HTTPStatus(code: 200, reasonPhrase: "Fine"), .ok)
        XCTAssertEqual(HTTPError.uriTooLong.status, .uriTooLong)
        XCTAssertEqual(HTTPError.badRequest("x").status.code, 400)
    }
}
