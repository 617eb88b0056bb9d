import XCTest
@testable import Core

/// PBKDF2 against RFC 6070 (HMAC-SHA1) and RFC 7914 §11 (HMAC-SHA256).
final class PBKDF2Tests: XCTestCase {
    private func derive(_ password: String, _ salt: String, _ iterations: Int, _ length: Int,
                        _ hash: Crypto.PBKDF2Hash = .sha1) -> String? {
        Crypto.pbkdf2(password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations,
                      keyLength: length, hash: hash).map(Hex.encode)
    }

    func testRFC6070Vectors() {
        XCTAssertEqual(derive("password", "salt", 1, 20), "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        XCTAssertEqual(derive("password", "salt", 2, 20), "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957")
        XCTAssertEqual(derive("password", "salt", 4096, 20), "4b007901b765489abead49d926f721d065a429c1")
        XCTAssertEqual(derive("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25),
                       "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038")
        XCTAssertEqual(derive("pass\u{0}word", "sa\u{0}lt", 4096, 16), "56fa6aa75548099dcc37d7f03425e0c3")
    }

    func testRFC7914SHA256Vector() {
        XCTAssertEqual(derive("passwd", "salt", 1, 64, .sha256),
                       "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                       + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    func testOutOfRangeParametersGiveNil() {
        XCTAssertNil(derive("p", "s", 0, 20))
        XCTAssertNil(derive("p", "s", -1, 20))
        XCTAssertNil(derive("p", "s", 1, 0))
        XCTAssertNil(derive("p", "s", Int(Int32.max) + 1, 20))
        XCTAssertNotNil(derive("", "", 1, 20))
    }
}
