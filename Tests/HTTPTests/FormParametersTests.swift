import XCTest
@testable import HTTP

final class FormParametersTests: XCTestCase {
    func testOrderedMultiValues() throws {
        let form = try FormParameters.parse("a=1&b=2&a=3")
        XCTAssertEqual(form.pairs.map(\.name), ["a", "b", "a"])
        XCTAssertEqual(form.first("a"), "1")
        XCTAssertEqual(form.list("a"), ["1", "3"])
        XCTAssertNil(form.first("c"))
    }

    func testPlusAndPercent() throws {
        let form = try FormParameters.parse("q=hello+world%21&n%C3%A9=caf%c3%a9&p=%2B")
        XCTAssertEqual(form.first("q"), "hello world!")
        XCTAssertEqual(form.first("né"), "café")
        XCTAssertEqual(form.first("p"), "+")
        let raw = try FormParameters.parse("q=a+b", plusIsSpace: false)
        XCTAssertEqual(raw.first("q"), "a+b")
    }

    func testEmptySegmentsAndMissingValues() throws {
        let form = try FormParameters.parse("&&a&b=&=v&")
        XCTAssertEqual(form.pairs.map(\.name), ["a", "b", ""])
        XCTAssertEqual(form.pairs.map(\.value), ["", "", "v"])
        XCTAssertTrue(try FormParameters.parse("").isEmpty)
        XCTAssertEqual(try FormParameters.parse("a=b=c").first("a"), "b=c")
    }

    func testListMergesArrayConventions() throws {
        let form = try FormParameters.parse("k=1&k[]=2&other=x&k[0]=3&k[12]=4&k[x]=no&kk=no&k%5B%5D=5")
        XCTAssertEqual(form.list("k"), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(form.list("missing"), [])
    }

    func testInvalidPercentEncoding() {
        XCTAssertThrowsError(try FormParameters.parse("a=%zz")) {
            XCTAssertEqual($0 as? FormError, .invalidPercentEncoding(offset: 2))
        }
        XCTAssertThrowsError(try FormParameters.parse("abc=1&d=%4")) {
            XCTAssertEqual($0 as? FormError, .invalidPercentEncoding(offset: 8))
        }
        XCTAssertThrowsError(try FormParameters.parse("a%=1")) {
            XCTAssertEqual($0 as? FormError, .invalidPercentEncoding(offset: 1))
        }
        XCTAssertThrowsError(try FormParameters.parse("a=%C3%28")) { XCTAssertEqual($0 as? FormError, .invalidUTF8) }
        XCTAssertThrowsError(try FormParameters.parse([0x61, 0x3D, 0xFF])) { XCTAssertEqual($0 as? FormError, .invalidUTF8) }
    }

    func testParameterCountLimit() throws {
        let atLimit = (0..<FormParameters.maxParameters).map { "p\($0)=v" }.joined(separator: "&")
        XCTAssertEqual(try FormParameters.parse(Array(atLimit.utf8)).pairs.count, 10_000)
        XCTAssertThrowsError(try FormParameters.parse(Substring(atLimit + "&one=more"))) {
            XCTAssertEqual($0 as? FormError, .tooManyParameters)
        }
        // Empty segments are not parameters.
        XCTAssertEqual(try FormParameters.parse(Substring(atLimit + "&&&")).pairs.count, 10_000)
    }

    func testSubstringOffsetsAreRelativeToTheSubstring() {
        let full = "/path?x=%g0"
        let query = full[full.index(after: full.firstIndex(of: "?") ?? full.startIndex)...]
        XCTAssertThrowsError(try FormParameters.parse(query)) {
            XCTAssertEqual($0 as? FormError, .invalidPercentEncoding(offset: 2))
        }
    }

    func testMergeAppends() throws {
        var form = try FormParameters.parse("a=1")
        form.merge(FormParameters([("a", "2"), ("b", "3")]))
        XCTAssertEqual(form.list("a"), ["1", "2"])
        XCTAssertEqual(Array(form).count, 3)
    }
}

/// `FormParameters.validate`, the check of a query string a route group does not parse
/// (`Router.group(...parsesQuery: false)`): it refuses exactly what `parse` refuses.
final class FormParametersValidateTests: XCTestCase {
    func testRefusesExactlyWhatParseRefuses() {
        var texts = ["", "a", "a=1&b=2", "&&a&b=&=v&", "q=hello+world%21", "n%C3%A9=caf%c3%a9", "%", "a=%", "a=%4",
                     "a=%4g", "a=%g4", "%zz=1", "a=%41%", "a=%C3", "a=%C3%A9", "a=%FF", "%FF=a", "a=%e2%82",
                     "a=%e2%82%ac", "a=\u{e9}", "a=b=c", "a=%00", "x=%ED%A0%80", "q=where+a%3D%3F&params[]=1",
                     String(repeating: "a=1&", count: FormParameters.maxParameters),
                     String(repeating: "a=1&", count: FormParameters.maxParameters) + "b=2",
                     String(repeating: "&", count: FormParameters.maxParameters + 5)]
        // Every byte after a `%`, and every byte on its own, in a name and in a value.
        for byte in UInt8(0x20)...UInt8(0x7E) where byte != UInt8(ascii: "&") {
            let c = String(UnicodeScalar(byte))
            texts += ["a=%" + c + "0", "a=%0" + c, c + "=v", "n=" + c]
        }
        for text in texts {
            let parsed = (try? FormParameters.parse(Substring(text))) != nil
            let validated = (try? FormParameters.validate(Substring(text))) != nil
            XCTAssertEqual(validated, parsed, text.count > 80 ? "\(text.prefix(40))… (\(text.count) bytes)" : text)
        }
        // Raw non-UTF-8 bytes (a server hands a query over as bytes read into a String without repair).
        var bytes = Array("a=".utf8)
        bytes.append(0xC3)
        let (validated, parsed) = bytes.withUnsafeBytes { raw in
            ((try? FormParameters.validate(raw, plusIsSpace: true)) != nil,
             (try? FormParameters.parse(raw, plusIsSpace: true)) != nil)
        }
        XCTAssertFalse(validated)
        XCTAssertFalse(parsed)
    }

    func testAGroupThatDoesNotParseGetsNoPairsAndTheSame400() throws {
        let request = try HTTPRequest(method: .get, target: "/p?a=1&b=%C3%A9", parsingQuery: false)
        XCTAssertTrue(request.queryParameters.isEmpty)
        XCTAssertEqual(request.query, "a=1&b=%C3%A9")
        XCTAssertEqual(try HTTPRequest(method: .get, target: "/p?a=1&b=%C3%A9").queryParameters.first("b"), "é")
        for target in ["/p?a=%zz", "/p?a=%C3"] {
            XCTAssertThrowsError(try HTTPRequest(method: .get, target: target, parsingQuery: false), target)
            XCTAssertThrowsError(try HTTPRequest(method: .get, target: target), target)
        }
    }
}
