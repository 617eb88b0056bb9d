import XCTest
@testable import BackbeamAPI

final class ParameterDecoderTests: XCTestCase {
    private let decoder = ParameterDecoder()

    private func decode(_ method: String = "GET", query: String = "", body: ParameterBody = .none,
                        file: StaticString = #filePath, line: UInt = #line) -> DecodedParameters? {
        do {
            return try decoder.decode(httpMethod: method, query: query, body: body)
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    private func failure(_ method: String = "GET", query: String = "", body: ParameterBody = .none,
                         decoder: ParameterDecoder? = nil) -> ParameterError? {
        do {
            _ = try (decoder ?? self.decoder).decode(httpMethod: method, query: query, body: body)
            return nil
        } catch {
            return error
        }
    }

    private func form(_ text: String) -> ParameterBody { .urlencoded(Array(text.utf8)) }

    func testSplitsDecodesAndKeepsOrder() {
        let p = decode(query: "b=2&a=1&c")?.parameters
        XCTAssertEqual(p?.names, ["b", "a", "c"])
        XCTAssertEqual(p?.value("c"), "", "a pair without '=' has the empty value")
        XCTAssertEqual(decode(query: "&&a=1&&")?.parameters.names, ["a"], "empty pairs are skipped")
        XCTAssertEqual(decode(query: "q=a=b")?.parameters.value("q"), "a=b", "split on the first '=' only")
        XCTAssertEqual(decode(query: "")?.parameters.isEmpty, true)
    }

    func testPlusIsSpaceInQueryAndBody() {
        // Android (BB-017): spaces as '+', in bodies and query strings alike.
        XCTAssertEqual(decode("POST", body: form("set-name=Bar+Pepe"))?.parameters.value("set-name"), "Bar Pepe")
        XCTAssertEqual(decode(query: "q=where+weight%3E%3D%3F")?.parameters.value("q"), "where weight>=?")
        XCTAssertEqual(decode(query: "a=%2B")?.parameters.value("a"), "+", "an escaped plus stays a plus")
        XCTAssertEqual(decode(query: "a+b=c")?.parameters.value("a b"), "c", "names are decoded too")
    }

    func testPercentDecodingAndUTF8() {
        XCTAssertEqual(decode(query: "set-name=Zaragoza%20caf%C3%A9")?.parameters.value("set-name"), "Zaragoza café")
        XCTAssertEqual(decode(query: "n=caf\u{e9}")?.parameters.value("n"), "café", "raw UTF-8 is accepted")
        // BB-023: a malformed escape or decoded bytes that are not UTF-8.
        XCTAssertEqual(failure("POST", body: form("set-name=%zz")), .malformedPercentEscape(source: .body, offset: 9))
        XCTAssertEqual(failure(query: "a=%4"), .malformedPercentEscape(source: .query, offset: 2))
        XCTAssertEqual(failure(query: "a=%"), .malformedPercentEscape(source: .query, offset: 2))
        XCTAssertEqual(failure("POST", body: form("x=1&set-name=%FF")), .invalidUTF8(source: .body, offset: 4))
        XCTAssertEqual(failure(query: "%C3=1"), .invalidUTF8(source: .query, offset: 0))
        XCTAssertEqual(ParameterError.malformedPercentEscape(source: .body, offset: 9).backbeamError.status, .invalidParameters)
    }

    func testThreeListEncodingsMeanOneList() {
        // BB-014/BB-015: iOS, Android, Node (escaped brackets) and browser forms.
        for query in ["params%5B%5D=3&params%5B%5D=5", "params[]=3&params[]=5", "params[0]=3&params[1]=5",
                      "params[1]=5&params[0]=3", "params%5B0%5D=3&params%5B1%5D=5", "params=3&params=5"] {
            XCTAssertEqual(decode(query: query)?.parameters.values("params"), ["3", "5"], query)
        }
        XCTAssertEqual(decode(query: "params[]=5&params[]=3")?.parameters.values("params"), ["5", "3"],
                       "arrival order is kept, never sorted")
    }

    func testIndexesSortNumericallyAndDuplicatesKeepArrival() {
        // BB-016: eleven indexed params, `[10]` last, whatever the arrival order.
        let shuffled = [3, 10, 0, 7, 1, 9, 2, 8, 4, 6, 5].map { "params[\($0)]=v\($0)" }.joined(separator: "&")
        XCTAssertEqual(decode(query: shuffled)?.parameters.values("params"), (0...10).map { "v\($0)" })
        XCTAssertEqual(decode(query: "k[1]=a&k[0]=b&k[1]=c&k[01]=d")?.parameters.values("k"), ["b", "a", "c", "d"])
        XCTAssertEqual(decode(query: "k[99999999999999999999999]=z&k[2]=y")?.parameters.values("k"), ["y", "z"],
                       "huge indexes compare without overflow")
    }

    func testMixedFormsConcatenateInArrivalOrder() {
        XCTAssertEqual(decode(query: "k=a&k[1]=c&k[]=x&k[0]=b&k=d")?.parameters.values("k"), ["a", "b", "c", "x", "d"])
        XCTAssertEqual(decode(query: "k[]=a&k=b")?.parameters.values("k"), ["a", "b"])
    }

    func testOtherBracketSyntaxIsALiteralName() {
        let p = decode(query: "a[b]=1&a[b][c]=2&a[=3&[0]=4&[]=5&a]=6&k[1a]=7")?.parameters
        XCTAssertEqual(p?.names, ["a[b]", "a[b][c]", "a[", "[0]", "[]", "a]", "k[1a]"])
        XCTAssertFalse(p?.contains("a") ?? true)
    }

    func testMergeRuleOneSourcePerName() {
        // BB-022: the browser SDK sends a DELETE's parameters in both URL and body; they are not doubled.
        let both = "key=k&params=1&params=2"
        let del = decode("DELETE", query: both, body: form(both))
        XCTAssertEqual(del?.parameters.values("params"), ["1", "2"])
        XCTAssertEqual(del?.parameters.values("key"), ["k"])
        // GET and DELETE prefer the query string, POST and PUT the body.
        XCTAssertEqual(decode("GET", query: "a=q", body: form("a=b"))?.parameters.values("a"), ["q"])
        XCTAssertEqual(decode("POST", query: "a=q", body: form("a=b"))?.parameters.values("a"), ["b"])
        XCTAssertEqual(decode("PUT", query: "a=q", body: form("a=b"))?.parameters.values("a"), ["b"])
        // Names only in one source come from that source; the query's come first.
        let post = decode("POST", query: "x=1", body: form("y=2"))?.parameters
        XCTAssertEqual(post?.names, ["x", "y"])
        // The effective method decides: Android's DELETE tunnelled through GET keeps the query's values,
        // a POST tunnelling a GET (JSONP) keeps the query's too.
        XCTAssertEqual(decode("POST", query: "a=q&_method=GET", body: form("a=b"))?.parameters.values("a"), ["q"])
    }

    func testMethodOverride() {
        // BB-019: Android DELETE as GET + _method=DELETE, with junk method/path kept as ordinary params.
        let android = decode(query: "_method=DELETE&method=DELETE&path=/data/place/x&key=k")
        XCTAssertEqual(android?.effectiveMethod, "DELETE")
        XCTAssertEqual(android?.parameters.value("method"), "DELETE")
        XCTAssertEqual(android?.parameters.value("path"), "/data/place/x")
        XCTAssertEqual(decode("POST", body: form("_method=put"))?.effectiveMethod, "PUT", "case-insensitive")
        XCTAssertEqual(decode("get", query: "")?.effectiveMethod, "GET")
        // BB-021: other values are refused; on PUT and DELETE `_method` is ignored.
        XCTAssertEqual(failure(query: "_method=PATCH"), .invalidMethodOverride)
        XCTAssertEqual(failure(query: "_method="), .invalidMethodOverride)
        XCTAssertEqual(decode("PUT", query: "_method=DELETE")?.effectiveMethod, "PUT")
        XCTAssertEqual(decode("DELETE", query: "_method=PATCH")?.effectiveMethod, "DELETE")
        XCTAssertEqual(failure(query: "_method=GET&_method=DELETE"), .repeatedScalar(name: "_method"))
        XCTAssertEqual(ParameterError.invalidMethodOverride.backbeamError.status, .invalidParameters)
    }

    func testScalarsMustBeSingleButListsMayRepeat() {
        // BB-024.
        XCTAssertEqual(failure(query: "key=a&key=b"), .repeatedScalar(name: "key"))
        XCTAssertEqual(failure("POST", body: form("set-name=a&set-name=b")), .repeatedScalar(name: "set-name"))
        XCTAssertEqual(failure("POST", body: form("incr-n[]=1&incr-n[]=2")), .repeatedScalar(name: "incr-n"))
        XCTAssertEqual(failure("POST", body: form("del-n=1&del-n=2")), .repeatedScalar(name: "del-n"))
        XCTAssertEqual(failure(query: "q=a&q[0]=b"), .repeatedScalar(name: "q"))
        let lists = decode("POST", body: form("params=1&params=2&add-t=a&add-t=b&rem-t[]=c&rem-t[]=d&channels=x&channels=y&foo=1&foo=2"))
        XCTAssertEqual(lists?.parameters.values("add-t"), ["a", "b"])
        XCTAssertEqual(lists?.parameters.values("foo"), ["1", "2"], "unknown names may repeat")
        // A one-element list is a scalar (§2.2).
        XCTAssertEqual(decode(query: "key[]=k")?.parameters.value("key"), "k")
        XCTAssertTrue(ParameterDecoder.isScalar("set-x"))
        XCTAssertFalse(ParameterDecoder.isScalar("add-x"))
    }

    func testMultipartFields() {
        // BB-018 (Node SDK): multipart fields are raw UTF-8, never percent-decoded, '+' kept; file parts skipped.
        let fields = [MultipartField(name: "key", value: Array("k".utf8)),
                      MultipartField(name: "set-name", value: Array("a+b%20c".utf8)),
                      MultipartField(name: "file", value: [0xFF, 0xD8], filename: "photo.jpg"),
                      MultipartField(name: "other", value: [0xFF], filename: "x.bin"),
                      MultipartField(name: "add-tags[]", value: Array("t1".utf8)),
                      MultipartField(name: "add-tags[]", value: Array("t2".utf8))]
        let p = decode("POST", body: .multipart(fields))?.parameters
        XCTAssertEqual(p?.names, ["key", "set-name", "add-tags"])
        XCTAssertEqual(p?.value("set-name"), "a+b%20c")
        XCTAssertEqual(p?.values("add-tags"), ["t1", "t2"])
        XCTAssertEqual(failure("POST", body: .multipart([MultipartField(name: "a", value: [0xC3])])),
                       .invalidUTF8(source: .body, offset: 0))
    }

    func testContentTypeKinds() {
        XCTAssertEqual(ParameterBody.kind(forContentType: "application/x-www-form-urlencoded"), .urlencoded)
        XCTAssertEqual(ParameterBody.kind(forContentType: "Application/X-WWW-Form-Urlencoded; charset=UTF-8"), .urlencoded)
        XCTAssertEqual(ParameterBody.kind(forContentType: " multipart/form-data ; boundary=xyz"), .multipart)
        XCTAssertEqual(ParameterBody.kind(forContentType: "application/json"), ParameterBody.Kind.none)
        XCTAssertEqual(ParameterBody.kind(forContentType: "multipart/mixed; boundary=a"), ParameterBody.Kind.none)
        XCTAssertEqual(ParameterBody.kind(forContentType: nil), ParameterBody.Kind.none)
    }

    func testCallback() {
        // BB-009/BB-011.
        XCTAssertEqual(decode(query: "callback=jQuery1102_3.cb$&_=1397166331409")?.callback, "jQuery1102_3.cb$")
        XCTAssertNil(decode(query: "a=1")?.callback)
        XCTAssertEqual(failure(query: "callback=alert(1)//"), .invalidCallback)
        XCTAssertEqual(failure(query: "callback=1abc"), .invalidCallback)
        XCTAssertEqual(failure(query: "callback="), .invalidCallback)
        XCTAssertEqual(failure(query: "callback=" + String(repeating: "a", count: 129)), .invalidCallback)
        XCTAssertEqual(decode(query: "callback=" + String(repeating: "a", count: 128))?.callback?.count, 128)
    }

    func testNamesCompareByBytes() {
        // "é" precomposed and decomposed are different parameters to the clients, which sign each name.
        let p = decode(query: "caf%C3%A9=1&cafe%CC%81=2")?.parameters
        XCTAssertEqual(p?.count, 2)
        XCTAssertEqual(p?.values("caf\u{e9}"), ["1"])
        XCTAssertEqual(p?.values("cafe\u{301}"), ["2"])
    }

    func testManyNamesUseTheIndexConsistently() {
        let query = (0..<40).map { "n\($0)=\($0)" }.joined(separator: "&") + "&n5=again"
        let p = decode(query: query)?.parameters
        XCTAssertEqual(p?.count, 40)
        XCTAssertEqual(p?.values("n5"), ["5", "again"])
        XCTAssertEqual(p?.value("n39"), "39")
        XCTAssertNil(p?.value("n40"))
    }
}
