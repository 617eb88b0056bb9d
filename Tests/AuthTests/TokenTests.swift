import XCTest
@testable import Auth

final class TokenTests: XCTestCase {
    func testTokenHasherIsHexSHA256() {
        XCTAssertEqual(TokenHasher.hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(TokenHasher.hash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testTokensAreURLSafeAndDistinct() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = TokenGenerator.token()
            XCTAssertEqual(token.count, 32)
            XCTAssertTrue(token.allSatisfy(allowed.contains), token)
            seen.insert(token)
        }
        XCTAssertEqual(seen.count, 200)
        XCTAssertEqual(TokenGenerator.token(bytes: 32).count, 43)
    }

    func testShortTokenRequestsAreRaisedToSixteenBytes() {
        XCTAssertEqual(TokenGenerator.token(bytes: 0).count, 22)
        XCTAssertEqual(TokenGenerator.token(bytes: -3).count, 22)
    }
}
