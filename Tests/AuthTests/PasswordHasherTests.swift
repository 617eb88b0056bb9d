import XCTest
@testable import Auth

final class PasswordHasherTests: XCTestCase {
    func testHashThenVerify() throws {
        let hash = try PasswordHasher.hash("correct horse", cost: 4)
        XCTAssertTrue(hash.hasPrefix("$2b$04$"), hash)
        XCTAssertEqual(hash.count, 60)
        XCTAssertTrue(PasswordHasher.verify("correct horse", hash: hash))
        XCTAssertFalse(PasswordHasher.verify("correct horse ", hash: hash))
        XCTAssertFalse(PasswordHasher.verify("", hash: hash))
        XCTAssertNotEqual(try PasswordHasher.hash("correct horse", cost: 4), hash, "salt must differ")
    }

    func testDefaultCostIsTen() throws {
        let hash = try PasswordHasher.hash("pw")
        XCTAssertTrue(hash.hasPrefix("$2b$10$"), hash)
        XCTAssertTrue(PasswordHasher.verify("pw", hash: hash))
    }

    func testKnownVectorsFromOtherImplementations() {
        // Published crypt_blowfish test vectors ($2a$, cost 5).
        XCTAssertTrue(PasswordHasher.verify("U*U", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
        XCTAssertTrue(PasswordHasher.verify("U*U*", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"))
        XCTAssertTrue(PasswordHasher.verify("U*U*U", hash: "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"))
        XCTAssertTrue(PasswordHasher.verify("", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"))
        XCTAssertFalse(PasswordHasher.verify("U*U*", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
        // Cost-10 hash of "password" made outside this code (Python's crypt module).
        let exported = "$2b$10$9v1PF.STvAItPR8k5kmSrORrdQnpOs3cVVtE8U2ApoJ1RtipHVQJ."
        XCTAssertTrue(PasswordHasher.verify("password", hash: exported))
        XCTAssertFalse(PasswordHasher.verify("Password", hash: exported))
    }

    func testAllBcryptPrefixesVerify() {
        // The same salt and digest under the three prefixes: for ASCII passwords they are one algorithm.
        let body = "$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        for prefix in ["$2a", "$2b", "$2y"] {
            XCTAssertTrue(PasswordHasher.verify("U*U", hash: prefix + body), prefix)
        }
        XCTAssertFalse(PasswordHasher.verify("U*U", hash: "$2x" + body))
    }

    func testLongPasswordsUseFirst72Bytes() throws {
        let base = String(repeating: "a", count: 72)
        let hash = try PasswordHasher.hash(base + "tail", cost: 4)
        XCTAssertTrue(PasswordHasher.verify(base, hash: hash))
        XCTAssertTrue(PasswordHasher.verify(base + "other tail", hash: hash))
        XCTAssertFalse(PasswordHasher.verify(String(base.dropLast()), hash: hash))
        // Longer than libcrypt's 512-byte passphrase limit still works.
        let huge = String(repeating: "x", count: 4096)
        XCTAssertTrue(PasswordHasher.verify(huge, hash: try PasswordHasher.hash(huge, cost: 4)))
    }

    func testUnicodePasswords() throws {
        let hash = try PasswordHasher.hash("pässwörd 🔑", cost: 4)
        XCTAssertTrue(PasswordHasher.verify("pässwörd 🔑", hash: hash))
        XCTAssertFalse(PasswordHasher.verify("passwörd 🔑", hash: hash))
    }

    func testMalformedHashesAreRejectedWithoutTrapping() {
        let good = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        let bad = ["", "U*U", "$2a$", "$2a$05$", String(good.dropLast()), good + "x", "$2a$03" + good.dropFirst(6),
                   "$2a$32" + good.dropFirst(6), "$2a$x5" + good.dropFirst(6), "$2a$05$" + String(repeating: "!", count: 53),
                   "$1$saltsalt$abcdefghijklmnopqrstuv", "abJnggxhB/yWI", "$6$salt$hash", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeé"]
        for hash in bad {
            XCTAssertFalse(PasswordHasher.verify("U*U", hash: hash), hash)
        }
    }

    func testInvalidInputsToHash() {
        XCTAssertThrowsError(try PasswordHasher.hash("x", cost: 3)) { XCTAssertEqual($0 as? PasswordHashError, .invalidCost(3)) }
        XCTAssertThrowsError(try PasswordHasher.hash("x", cost: 32)) { XCTAssertEqual($0 as? PasswordHashError, .invalidCost(32)) }
        XCTAssertThrowsError(try PasswordHasher.hash("a\u{0}b", cost: 4)) {
            XCTAssertEqual($0 as? PasswordHashError, .passwordContainsNUL)
        }
        XCTAssertFalse(PasswordHasher.verify("U*U\u{0}", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
    }

    func testConcurrentVerification() throws {
        let hash = try PasswordHasher.hash("shared", cost: 4)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let expected = i % 2 == 0
            if PasswordHasher.verify(expected ? "shared" : "other", hash: hash) != expected { failures.add() }
        }
        XCTAssertEqual(failures.count, 0)
    }
}

/// Thread-safe failure counter for the concurrency test.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
