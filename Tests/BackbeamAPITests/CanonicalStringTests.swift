import XCTest
@testable import BackbeamAPI

/// The test vectors of §3.6 (BB-026), and the ordering rules of §3.3 step 4.
final class CanonicalStringTests: XCTestCase {
    static let nonce = "6303cd9bf27d27eb6343427ac42365b38b09f112"
    static let time = "1397166331409"

    private func check(_ parameters: BackbeamParameters, method: String, path: String, secret: String,
                       canonical: String, signature: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(CanonicalString.string(parameters: parameters, method: method, path: path), canonical,
                       file: file, line: line)
        XCTAssertEqual(CanonicalString.signature(secret: secret, parameters: parameters, method: method, path: path),
                       signature, file: file, line: line)
    }

    func testVectorA() {
        let p = BackbeamParameters(scalars: [("email", "user@example.com"), ("password", "foobarbaz"),
                                             ("key", "pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a"),
                                             ("nonce", Self.nonce), ("time", Self.time)])
        check(p, method: "POST", path: "/user/email/login",
              secret: "pro_d2483cadbe4018c2603d9ba8993663f42134ed455e5e7ffdb7c8573218d323b3cfe7d50d1c6a371f",
              canonical: "email=user@example.com&key=pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a&method=POST&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&password=foobarbaz&path=/user/email/login&time=1397166331409",
              signature: "ipzB9/s8GthdC4e6JVv5EwUOm6Y=")
    }

    /// Request (b): `params` sent as 5, 3 is signed over a sorted copy; the parameters keep 5, 3.
    static let vectorB = BackbeamParameters([("q", ["where weight>=? and weight<=? sort by weight"]),
                                             ("params", ["5", "3"]), ("limit", ["10"]), ("offset", ["0"]),
                                             ("key", ["foo"]), ("nonce", [nonce]), ("time", [time])])
    static let canonicalB = "key=foo&limit=10&method=GET&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&offset=0&params=3&params=5&path=/data/item&q=where weight>=? and weight<=? sort by weight&time=1397166331409"
    static let signatureB = "a8nfze1Ujrh5eHB6ZuvMp4M8wrY="

    func testVectorB() {
        check(Self.vectorB, method: "GET", path: "/data/item", secret: "bar", canonical: Self.canonicalB,
              signature: Self.signatureB)
        XCTAssertEqual(Self.vectorB.values("params"), ["5", "3"], "the list itself is not reordered")
    }

    func testVectorC() {
        let p = BackbeamParameters([("set-name", ["Other name"]), ("incr-units", ["1"]), ("add-tags", ["b2", "a1"]),
                                    ("auth", ["abc|def"]), ("key", ["foo"]), ("nonce", [Self.nonce]), ("time", [Self.time])])
        check(p, method: "PUT", path: "/data/item/uDiuuGIMMQ4O", secret: "bar",
              canonical: "add-tags=a1&add-tags=b2&auth=abc|def&incr-units=1&key=foo&method=PUT&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&path=/data/item/uDiuuGIMMQ4O&set-name=Other name&time=1397166331409",
              signature: "JR2hkkRZK2gSQpHsoPMSrUW0+FU=")
    }

    func testVectorD() {
        // `params` = [] is not sent at all; `q=` is emitted with its empty value.
        let p = BackbeamParameters([("q", [""]), ("params", []), ("limit", ["10"]), ("offset", ["0"]),
                                    ("key", ["foo"]), ("nonce", [Self.nonce]), ("time", [Self.time])])
        check(p, method: "GET", path: "/data/item", secret: "bar",
              canonical: "key=foo&limit=10&method=GET&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&offset=0&path=/data/item&q=&time=1397166331409",
              signature: "Fu//PabG7VjsR7wTPUQq45WW8Ik=")
    }

    func testVectorE() {
        let p = BackbeamParameters(scalars: [("set-name", "Zaragoza caf\u{e9}"), ("key", "foo"), ("nonce", Self.nonce),
                                             ("time", Self.time)])
        check(p, method: "POST", path: "/data/place", secret: "bar",
              canonical: "key=foo&method=POST&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&path=/data/place&set-name=Zaragoza café&time=1397166331409",
              signature: "D/RVf8Bs7UuAZ2gU2GowzXz3524=")
    }

    func testMethodAndPathOverwriteAndSkippedNames() {
        // Android's junk `method`/`path` and the JSONP/tunnelling names change nothing.
        var p = Self.vectorB
        for (name, value) in [("method", "POST"), ("path", "/foo"), ("_method", "GET"), ("callback", "cb"),
                              ("_", "123"), ("", "x"), ("signature", "zzz")] {
            p.append(name, value)
        }
        XCTAssertEqual(CanonicalString.string(parameters: p, method: "GET", path: "/data/item"), Self.canonicalB)
    }

    func testUTF16OrderIsNotSwiftStringOrder() {
        // U+FF5E (one UTF-16 unit, 0xFF5E) sorts after U+1F600 (surrogates 0xD83D 0xDE00) in UTF-16 order,
        // but before it in code-point (and UTF-8) order.
        XCTAssertTrue(UTF16Order.precedes("\u{1F600}", "\u{FF5E}"))
        XCTAssertFalse(UTF16Order.precedes("\u{FF5E}", "\u{1F600}"))
        XCTAssertTrue(UTF16Order.precedes("a", "b"))
        XCTAssertTrue(UTF16Order.precedes("Z", "a"), "upper case first, as in NSString compare:")
        XCTAssertTrue(UTF16Order.precedes("set-a", "set-a-b"))
        XCTAssertTrue(UTF16Order.precedes("add-tags", "auth"))
        // Canonically equivalent but different code units: Swift's `<` calls them equal, UTF-16 does not.
        XCTAssertFalse("e\u{301}" < "\u{e9}")
        XCTAssertFalse("\u{e9}" < "e\u{301}")
        XCTAssertTrue(UTF16Order.precedes("e\u{301}", "\u{e9}"))
        let p = BackbeamParameters(scalars: [("\u{FF5E}", "1"), ("\u{1F600}", "2")])
        XCTAssertEqual(CanonicalString.string(parameters: p, method: "GET", path: "/"),
                       "method=GET&path=/&\u{1F600}=2&\u{FF5E}=1")
    }

    func testListValuesSortedByUTF16() {
        let p = BackbeamParameters([("add-t", ["\u{FF5E}", "\u{1F600}", "b", "B"])])
        XCTAssertEqual(CanonicalString.string(parameters: p, method: "PUT", path: "/x"),
                       "add-t=B&add-t=b&add-t=\u{1F600}&add-t=\u{FF5E}&method=PUT&path=/x")
    }
}
