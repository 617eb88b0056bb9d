import XCTest
import Core
@testable import DatastoreAPI

/// dbase64, identifier grammars and shareable dsid derivation.
final class EncodingTests: XCTestCase {
    func testDBase64Vector() {
        XCTAssertEqual(DBase64.encode([0x00, 0x01, 0xFF]), "AAH_")
        XCTAssertEqual(DBase64.encode([]), "")
        XCTAssertEqual(DBase64.encode([0xFB]), "-w")
        XCTAssertEqual(DBase64.encode([0xFB, 0xFF]), "-_8")
    }

    func testDBase64Validity() {
        XCTAssertTrue(DBase64.isValid(""))
        XCTAssertTrue(DBase64.isValid("AAH_"))
        XCTAssertTrue(DBase64.isValid("AA"))
        XCTAssertFalse(DBase64.isValid("A"))
        XCTAssertFalse(DBase64.isValid("AA=="))
        XCTAssertFalse(DBase64.isValid("a+b/"))
    }

    func testDecodedLengthIsExact() {
        XCTAssertEqual(DBase64.decodedLength(ofValid: ""), 0)
        XCTAssertEqual(DBase64.decodedLength(ofValid: "AA"), 1)
        XCTAssertEqual(DBase64.decodedLength(ofValid: "AAA"), 2)
        XCTAssertEqual(DBase64.decodedLength(ofValid: "AAAA"), 3)
        XCTAssertEqual(DBase64.decodedLength(ofValid: "AAAAAA"), 4)
    }

    func testShareableDsidFromKeyVectors() {
        XCTAssertEqual(Identifiers.shareableDsid(forKey: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"),
                       ".6oZqdX5MOLq_qBJ8vppAnT4fk6AP8UiP9zX8-Rev_9A")
        XCTAssertEqual(Identifiers.shareableDsid(forKey: "abc"), ".ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
    }

    func testPrivateDsidGrammar() {
        for ok in ["default", "a", "a_b-c.d", "a..b", String(repeating: "a", count: 64), "-x-", "_"] {
            XCTAssertTrue(Identifiers.isPrivateDsid(ok), ok)
        }
        for bad in ["", "Default", ".", "a.", ".a", String(repeating: "a", count: 65), "' OR 1=1 --", "é"] {
            XCTAssertFalse(Identifiers.isPrivateDsid(bad), bad)
        }
    }

    func testShareableDsidGrammar() {
        XCTAssertTrue(Identifiers.isShareableDsid(".a"))
        XCTAssertTrue(Identifiers.isShareableDsid("." + String(repeating: "A", count: 63)))
        XCTAssertFalse(Identifiers.isShareableDsid("."))
        XCTAssertFalse(Identifiers.isShareableDsid("." + String(repeating: "A", count: 64)))
        XCTAssertFalse(Identifiers.isShareableDsid(".a.b"))
    }

    func testNameGrammar() {
        XCTAssertTrue(Identifiers.isValidName(":reserved"))
        XCTAssertTrue(Identifiers.isValidName(String(repeating: "a", count: 64)))
        XCTAssertTrue(Identifiers.isValidName("a+b=c/d.e_f-g"))
        XCTAssertTrue(Identifiers.isValidName(":" + String(repeating: "a", count: 63)))
        for bad in ["", ":", "a b", "t'", "x;DROP TABLE", String(repeating: "a", count: 65), "a\u{0}", "é",
                    ":" + String(repeating: "a", count: 64)] {
            XCTAssertFalse(Identifiers.isValidName(bad), bad)
        }
    }

    func testCanonicalRev() {
        XCTAssertEqual(Identifiers.parseCanonicalRev("0"), 0)
        XCTAssertEqual(Identifiers.parseCanonicalRev("42"), 42)
        for bad in ["", "abc", "-1", "01", "+1", "1.0", "99999999999999999999", " 1"] {
            XCTAssertNil(Identifiers.parseCanonicalRev(bad), bad)
        }
    }

    func testClientTokenPattern() {
        XCTAssertTrue(Identifiers.isClientAcceptableToken(DatastoreTokens.generate()))
        XCTAssertTrue(Identifiers.isClientAcceptableToken("abc.def+~/x=="))
        XCTAssertFalse(Identifiers.isClientAcceptableToken("bad token"))
        XCTAssertFalse(Identifiers.isClientAcceptableToken("a=b"))
        XCTAssertFalse(Identifiers.isClientAcceptableToken(""))
    }

    func testGeneratedTokenShape() {
        let token = DatastoreTokens.generate()
        XCTAssertEqual(token.utf8.count, 43)
        XCTAssertTrue(DBase64.isValid(token))
    }

    /// A token must be usable as a command-line argument: it never starts with `-`. With 1/64 chance per
    /// draw, 2,000 draws would almost surely show one if the rule were missing.
    func testGeneratedTokensNeverStartWithDash() {
        for _ in 0..<2000 { XCTAssertNotEqual(DatastoreTokens.generate().first, "-") }
    }
}
