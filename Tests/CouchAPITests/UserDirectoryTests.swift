import XCTest
import Core
@testable import CouchAPI

/// The `_users` directory's caches (spec §2.7.2): verified passwords are remembered (PBKDF2 runs once), and
/// every `_users` write forgets them, so a changed password or a deleted account takes effect at once.
final class UserDirectoryTests: XCTestCase {
    private func userBody(_ password: String) -> String {
        let members = UserAccount.hashMembers(password: password, iterations: 1000) ?? []
        return JSON.object(JSONObject([("name", .string("bob")), ("roles", .array([.string("r")]))] + members)).serialized()
    }

    func testVerifiedPasswordsAreRememberedUntilUsersChange() throws {
        let fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "_users", createdMicros: 1))
        let first = try fixture.revision(fixture.put("_users", "org.couchdb.user:bob", userBody("pw")))
        let directory = UserDirectory(store: fixture.store, ttl: 300)
        var checks = 0
        func verify(_ password: String) throws -> UserAccount? {
            try directory.verify(name: "bob", password: password) { run in
                checks += 1
                return run()
            }
        }
        XCTAssertEqual(try verify("pw")?.roles, ["r"])
        XCTAssertEqual(try verify("pw")?.name, "bob")
        XCTAssertEqual(checks, 1, "the second request is answered from memory")
        XCTAssertNil(try verify("wrong"))
        XCTAssertEqual(checks, 2, "a wrong password is always checked")
        XCTAssertNil(try directory.verify(name: "nobody", password: "pw") { run in checks += 1; return run() })
        XCTAssertEqual(checks, 3, "an unknown name counts as a check (a failed login)")

        _ = try fixture.put("_users", "org.couchdb.user:bob", userBody("new"), rev: first)
        XCTAssertNil(try verify("pw"), "the old password is forgotten after the write")
        XCTAssertEqual(try verify("new")?.name, "bob")
        XCTAssertEqual(try directory.account(named: "bob")?.credential?.salt.count, 32)
    }

    func testZeroLifetimeRemembersNothing() throws {
        let fixture = try StoreFixture(self)
        XCTAssertTrue(try fixture.store.createDatabase(name: "_users", createdMicros: 1))
        _ = try fixture.put("_users", "org.couchdb.user:bob", userBody("pw"))
        let directory = UserDirectory(store: fixture.store, ttl: 0)
        var checks = 0
        for _ in 0..<2 { XCTAssertNotNil(try directory.verify(name: "bob", password: "pw") { run in checks += 1; return run() }) }
        XCTAssertEqual(checks, 2)
    }
}
