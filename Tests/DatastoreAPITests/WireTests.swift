import XCTest
import Core
@testable import DatastoreAPI

/// JSON rendering: verbatim numbers, minimal escaping and the list token vectors (§8.5).
final class WireTests: XCTestCase {
    func testEmptyListToken() {
        XCTAssertEqual(ListWire.token([]), ListWire.emptyToken)
    }

    func testListTokenVector() {
        let item = ListItem(dsid: "default", handle: "nuFbyLH_NawvJB2r", rev: 3,
                            infoJSON: "{\"title\":\"My title\",\"mtime\":{\"T\":\"1400000000123\"}}", role: nil)
        XCTAssertEqual(ListWire.token([item]), "d4456a3f96af2afae0e0cf8a17e071d23b3d760e2f93cb929e2d5ded985fe88f")
    }

    func testVerbatimNumbersAndEscaping() throws {
        let value = try JSONParser.parse("[1.50,1E5,true,-0,\"caf\\u00e9\",\"a\\\"b\\\\c\\n\\u0001/\"]")
        XCTAssertEqual(JSONWriter.serialize(value), "[1.50,1E5,true,-0,\"café\",\"a\\\"b\\\\c\\n\\u0001/\"]")
    }

    func testSortedKeysAreBytewise() throws {
        let value = try JSONParser.parse("{\"b\":1,\"a\":{\"z\":1,\"Z\":2},\"é\":3}")
        XCTAssertEqual(JSONWriter.serialize(value, sortKeys: true), "{\"a\":{\"Z\":2,\"z\":1},\"b\":1,\"é\":3}")
    }

    /// The form media type is recognised on bytes: any case, parameters and blanks around it ignored.
    func testFormMediaTypeRecognition() {
        for accepted in ["application/x-www-form-urlencoded", "Application/X-WWW-Form-URLEncoded",
                         "application/x-www-form-urlencoded; charset=utf-8", " application/x-www-form-urlencoded\t;x=1",
                         "application/x-www-form-urlencoded ;"] {
            XCTAssertTrue(RequestParameters.isFormMediaType(accepted), accepted)
        }
        for refused in ["", ";", "application/json", "application/x-www-form-urlencodedx", "application/x-www-form-urlencode",
                        "multipart/form-data; boundary=x", "application/x-www-form-urlencoded\u{301}",
                        "text/plain; application/x-www-form-urlencoded"] {
            XCTAssertFalse(RequestParameters.isFormMediaType(refused), refused)
        }
    }
}
