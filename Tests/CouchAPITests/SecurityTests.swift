import XCTest
import Core
@testable import CouchAPI

/// `_security` objects and the access levels they grant (spec §2.8, §3.2.8), and the store's access epoch
/// that tells cached facts from stale ones.
final class SecurityTests: XCTestCase {
    private func object(_ json: String) throws -> SecurityObject { try SecurityObject(validating: try CouchJSON.parse(json)) }

    func testValidationReasons() {
        func reason(_ json: String) -> String? {
            do { _ = try object(json); return nil } catch { return (error as? CouchError)?.reason }
        }
        XCTAssertEqual(reason(#"{"members":{"names":"bob"}}"#), "names must be a JSON list of strings")
        XCTAssertEqual(reason(#"{"admins":{"roles":[1]}}"#), "roles must be a JSON list of strings")
        XCTAssertEqual(reason(#"{"admins":[]}"#), "admins or members must be a JSON list of strings")
        XCTAssertNotNil(reason("[]"))
        XCTAssertNil(reason("{}"))
        XCTAssertNil(reason(#"{"members":null,"other":1}"#))
    }

    func testGrantedLevels() throws {
        let security = try object(#"{"admins":{"names":["ann"],"roles":["boss"]},"readers":{"names":["bob"],"roles":["staff"]}}"#)
        let facts = DatabaseFacts(security: security, validatesUpdates: true)
        func level(_ name: String?, _ roles: [String] = [], publicEmpty: Bool = false, _ f: DatabaseFacts? = nil) -> Permissions.Level {
            Authorization.grant(f ?? facts, credentials: Credentials(name: name, roles: roles, method: .basic),
                                publicWhenMembersEmpty: publicEmpty).level
        }
        XCTAssertEqual(level("ann"), .databaseAdmin)
        XCTAssertEqual(level("zed", ["boss"]), .databaseAdmin)
        XCTAssertEqual(level("bob"), .member, "legacy readers count as members")
        XCTAssertEqual(level("cy", ["staff"]), .member)
        XCTAssertEqual(level("cy"), .none)
        XCTAssertEqual(level(nil), .none)
        let open = DatabaseFacts(security: .empty, validatesUpdates: false)
        XCTAssertEqual(level("cy", [], open), .none, "empty members: admin-only")
        XCTAssertEqual(level(nil, publicEmpty: true, open), .member)
        XCTAssertEqual(Authorization.grant(nil, credentials: Credentials(name: "ann", roles: [], method: .basic),
                                           publicWhenMembersEmpty: true).level, .none, "no database: admin-only")
    }

    func testValidationFunctionsAreFound() {
        XCTAssertTrue(AccessCache.definesValidation(Array(#"{"validate_doc_update":"function(){}"}"#.utf8)))
        XCTAssertFalse(AccessCache.definesValidation(Array(#"{"views":{"validate_doc_update":{}}}"#.utf8)))
        XCTAssertFalse(AccessCache.definesValidation(Array(#"{"language":"javascript"}"#.utf8)))
    }

    func testEpochMovesOnlyForAccessFacts() throws {
        let fixture = try StoreFixture(self)
        let store = fixture.store
        XCTAssertTrue(try store.createDatabase(name: "db", createdMicros: 1))
        let cache = AccessCache(store: store)
        XCTAssertEqual(try cache.facts("db")?.validatesUpdates, false)
        var epoch = store.accessEpoch.current
        _ = try fixture.put("db", "plain", "{}")
        XCTAssertEqual(store.accessEpoch.current, epoch, "ordinary documents leave cached facts valid")
        _ = try fixture.put("db", "_design/v", #"{"validate_doc_update":"x"}"#)
        XCTAssertGreaterThan(store.accessEpoch.current, epoch)
        XCTAssertEqual(try cache.facts("db")?.validatesUpdates, true)
        epoch = store.accessEpoch.current
        XCTAssertTrue(try store.setSecurity(database: "db", object: Array(#"{"members":{"names":["bob"]}}"#.utf8)))
        XCTAssertGreaterThan(store.accessEpoch.current, epoch)
        XCTAssertEqual(try cache.facts("db")?.security.members.names, ["bob"])
        XCTAssertFalse(try store.setSecurity(database: "nosuch", object: Array("{}".utf8)))
        XCTAssertNil(try cache.facts("nosuch"))
        epoch = store.accessEpoch.current
        XCTAssertTrue(try store.createDatabase(name: "_users", createdMicros: 1))
        XCTAssertGreaterThan(store.accessEpoch.current, epoch)
        epoch = store.accessEpoch.current
        _ = try fixture.put("_users", "org.couchdb.user:bob", #"{"name":"bob"}"#)
        XCTAssertGreaterThan(store.accessEpoch.current, epoch, "every _users write")
    }
}
