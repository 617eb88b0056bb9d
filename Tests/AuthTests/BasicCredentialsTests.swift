import XCTest
import Core
@testable import Auth

final class BasicCredentialsTests: XCTestCase {
    private func header(_ text: String, scheme: String = "Basic") -> String {
        "\(scheme) " + Base64.encode(Array(text.utf8))
    }

    func testDecodesNameAndPasswordAtTheFirstColon() {
        XCTAssertEqual(BasicCredentials(authorization: header("admin:s3cret")), BasicCredentials(name: "admin", password: "s3cret"))
        XCTAssertEqual(BasicCredentials(authorization: header("app:javascript-key=a:b")),
                       BasicCredentials(name: "app", password: "javascript-key=a:b"))
        XCTAssertEqual(BasicCredentials(authorization: header(":")), BasicCredentials(name: "", password: ""))
        XCTAssertEqual(BasicCredentials(authorization: header("admin:", scheme: "bAsIc")), BasicCredentials(name: "admin", password: ""))
        XCTAssertEqual(BasicCredentials(authorization: "Basic  " + Base64.encode(Array("a:b".utf8)) + " "),
                       BasicCredentials(name: "a", password: "b"), "whitespace around the Base64 is ignored")
    }

    func testRefusesEverythingElse() {
        for bad in ["", "Basic", "Basic ", "Bearer abc", header("no colon"), "Basic !!!notbase64",
                    "Basic " + Base64.encode([0xff, 0x3a, 0x61]), " Basic " + Base64.encode(Array("a:b".utf8)),
                    "Basic\t" + Base64.encode(Array("a:b".utf8))] {
            XCTAssertNil(BasicCredentials(authorization: bad), bad)
        }
    }
}
