import XCTest
@testable import Files

final class SafeFileNameTests: XCTestCase {
    func testOrdinaryNamesAreKept() {
        for name in ["photo.jpg", "Report 2024 (final).pdf", "résumé.txt", "データ.csv", "a", "x.tar.gz"] {
            XCTAssertEqual(SafeFileName.sanitize(name), name)
            XCTAssertTrue(SafeFileName.isSafe(name), name)
        }
    }

    func testPathsAndTraversalAreCutAway() {
        XCTAssertEqual(SafeFileName.sanitize("../../etc/passwd"), "passwd")
        XCTAssertEqual(SafeFileName.sanitize("C:\\Users\\me\\photo.jpg"), "photo.jpg")
        XCTAssertEqual(SafeFileName.sanitize("dir/sub\\..\\name.txt"), "name.txt")
        XCTAssertNil(SafeFileName.sanitize(".."))
        XCTAssertNil(SafeFileName.sanitize("."))
        XCTAssertNil(SafeFileName.sanitize("uploads/"), "nothing after the last separator")
        XCTAssertNil(SafeFileName.sanitize(""))
        XCTAssertNil(SafeFileName.sanitize(" . . "))
        XCTAssertEqual(SafeFileName.sanitize(".htaccess"), "htaccess", "no hidden files")
        XCTAssertEqual(SafeFileName.sanitize("invoice.pdf.exe. . "), "invoice.pdf.exe")
        XCTAssertFalse(SafeFileName.isSafe("../x"))
    }

    func testControlAndInvisibleCharactersAreRemoved() {
        XCTAssertEqual(SafeFileName.sanitize("a\u{0}b\r\nc\td.txt"), "abcd.txt")
        XCTAssertEqual(SafeFileName.sanitize("evil\u{202E}gpj.exe"), "evilgpj.exe", "no right-to-left override")
        XCTAssertEqual(SafeFileName.sanitize("\u{FEFF}zero\u{200B}width.txt"), "zerowidth.txt")
        XCTAssertEqual(SafeFileName.sanitize("del\u{7F}\u{85}.txt"), "del.txt")
        XCTAssertNil(SafeFileName.sanitize("\u{1}\u{2}\u{3}"))
    }

    func testReservedCharactersAndDeviceNames() {
        XCTAssertEqual(SafeFileName.sanitize("a\"b*c:d<e>f?g|h.txt"), "a_b_c_d_e_f_g_h.txt")
        XCTAssertEqual(SafeFileName.sanitize("CON"), "_CON")
        XCTAssertEqual(SafeFileName.sanitize("nul.txt"), "_nul.txt")
        XCTAssertEqual(SafeFileName.sanitize("lpt9.tar.gz"), "_lpt9.tar.gz")
        XCTAssertEqual(SafeFileName.sanitize("console.txt"), "console.txt")
    }

    func testLongNamesAreCutKeepingTheExtension() throws {
        let long = String(repeating: "a", count: 300) + ".jpeg"
        let cut = try XCTUnwrap(SafeFileName.sanitize(long))
        XCTAssertEqual(cut.utf8.count, 255)
        XCTAssertTrue(cut.hasSuffix("a.jpeg"))
        let wide = String(repeating: "é", count: 200)   // two bytes each
        let cutWide = try XCTUnwrap(SafeFileName.sanitize(wide, maxBytes: 11))
        XCTAssertEqual(cutWide, String(repeating: "é", count: 5), "never half a character")
        XCTAssertEqual(SafeFileName.sanitize("abcdef.txt", maxBytes: 6), "ab.txt")
        XCTAssertEqual(SafeFileName.sanitize("abcdef." + String(repeating: "x", count: 40), maxBytes: 8), "abcdef.x",
                       "an extension too long to keep is cut like the rest")
    }
}
