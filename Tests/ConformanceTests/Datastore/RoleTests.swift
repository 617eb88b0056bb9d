import Foundation
import XCTest
import Core

/// DS-150 … DS-162: roles and `:acl`.
final class DatastoreRoleTests: DatastoreTestCase {
    private var handle = ""
    private var rev = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        handle = try ds.createShared(key: "roles-\(name)")
        rev = 0
    }

    /// Owner (A) puts `changes`; asserts success.
    private func ownerPut(_ changes: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try ds.put(handle, rev: rev, changes).text, "{\"rev\":\(rev + 1)}", file: file, line: line)
        rev += 1
    }

    func test_DS_150_viewer_put_denied() throws {
        try ownerPut(DatastoreServer.grant("public", 1000))
        assertSoft(try ds.put(handle, rev: rev, "[[\"I\",\"t\",\"r\",{}]]", token: DatastoreServer.tokenB), "access_denied")
        XCTAssertEqual(try self.rev(handle), Int64(rev))
    }

    func test_DS_151_editor_put() throws {
        try ownerPut(DatastoreServer.grant("u2", 2000))
        XCTAssertEqual(try ds.put(handle, rev: rev, "[[\"I\",\"t\",\"r\",{}]]", token: DatastoreServer.tokenB).text,
                       "{\"rev\":\(rev + 1)}")
    }

    func test_DS_152_editor_grants_public() throws {
        try ownerPut(DatastoreServer.grant("u2", 2000))
        assertSoft(try ds.snapshot(handle, token: DatastoreServer.tokenC), "notfound")
        XCTAssertEqual(try ds.put(handle, rev: rev, DatastoreServer.grant("public", 1000), token: DatastoreServer.tokenB).text,
                       "{\"rev\":\(rev + 1)}")
        XCTAssertEqual(try ds.snapshot(handle, token: DatastoreServer.tokenC)["role"]?.int64Value, 1000)
    }

    func test_DS_153_only_viewer_or_editor_roles() throws {
        try ownerPut(DatastoreServer.grant("u2", 2000))
        for token in [DatastoreServer.tokenA, DatastoreServer.tokenB] {
            for role in ["{\"I\":\"3000\"}", "{\"I\":\"1500\"}", "1000"] {
                assertError(try ds.put(handle, rev: rev, "[[\"I\",\":acl\",\"public\",{\"role\":\(role)}]]", token: token), 400)
            }
        }
    }

    func test_DS_154_owner_record_untouchable() throws {
        assertError(try ds.put(handle, rev: rev, DatastoreServer.grant("u1", 2000)), 400, contains: "change 0")
        assertError(try ds.put(handle, rev: rev, "[[\"D\",\":acl\",\"u1\"]]"), 400, contains: "change 0")
    }

    func test_DS_155_principal_names() throws {
        for principal in ["u999", "u01", "bob"] {
            assertError(try ds.put(handle, rev: rev, DatastoreServer.grant(principal, 1000)), 400, contains: "change 0")
        }
        try ownerPut(DatastoreServer.grant("u3", 1000))
    }

    func test_DS_156_acl_record_shape() throws {
        assertError(try ds.put(handle, rev: rev, "[[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1000\"},\"x\":\"y\"}]]"), 400)
        try ownerPut(DatastoreServer.grant("public", 1000))
        assertError(try ds.put(handle, rev: rev, "[[\"U\",\":acl\",\"public\",{\"role\":[\"D\"]}]]"), 400)
    }

    func test_DS_157_no_acl_in_private_datastore() throws {
        let p = try ds.create()
        assertError(try ds.put(p, rev: 0, DatastoreServer.grant("public", 1000)), 400, contains: "change 0")
        assertError(try ds.put(p, rev: 0, "[[\"I\",\":acl\",\"x\",{}]]"), 400)
    }

    func test_DS_158_removing_public_revokes() throws {
        try ownerPut(DatastoreServer.grant("public", 1000))
        XCTAssertEqual(try ds.snapshot(handle, token: DatastoreServer.tokenB)["role"]?.int64Value, 1000)
        try ownerPut("[[\"D\",\":acl\",\"public\"]]")
        assertSoft(try ds.snapshot(handle, token: DatastoreServer.tokenB), "notfound")
        assertSoft(try ds.deltas(handle, rev: 0, token: DatastoreServer.tokenB), "notfound")
        assertSoft(try ds.put(handle, rev: rev, "[]", token: DatastoreServer.tokenB), "notfound")
    }

    func test_DS_159_team_without_configuration() throws {
        try ownerPut(DatastoreServer.grant("team", 2000))
        assertSoft(try ds.snapshot(handle, token: DatastoreServer.tokenB), "notfound")
    }

    func test_DS_161_editor_removes_own_grant() throws {
        try ownerPut("[[\"I\",\":acl\",\"u2\",{\"role\":{\"I\":\"2000\"}}],[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1000\"}}]]")
        XCTAssertEqual(try ds.put(handle, rev: rev, "[[\"D\",\":acl\",\"u2\"]]", token: DatastoreServer.tokenB).text,
                       "{\"rev\":\(rev + 1)}")
        rev += 1
        assertSoft(try ds.put(handle, rev: rev, "[]", token: DatastoreServer.tokenB), "access_denied")
        try ownerPut("[[\"D\",\":acl\",\"public\"]]")
        assertSoft(try ds.put(handle, rev: rev, "[]", token: DatastoreServer.tokenB), "notfound")
    }

    func test_DS_162_maximum_role_wins() throws {
        try ownerPut("[[\"I\",\":acl\",\"u2\",{\"role\":{\"I\":\"1000\"}}],[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"2000\"}}]]")
        XCTAssertEqual(try ds.snapshot(handle, token: DatastoreServer.tokenB)["role"]?.int64Value, 2000)
    }
}

/// DS-160: teams configured as {alice, bob}.
final class DatastoreTeamTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_TEAMS": "{\"crew\":[\"alice\",\"bob\"]}"] }

    func test_DS_160_team_grant() throws {
        let h = try ds.createShared(key: "team-key")
        XCTAssertEqual(try ds.put(h, rev: 0, DatastoreServer.grant("team", 2000)).text, "{\"rev\":1}")
        XCTAssertEqual(try ds.snapshot(h, token: DatastoreServer.tokenB)["role"]?.int64Value, 2000)
        XCTAssertEqual(try ds.put(h, rev: 1, "[]", token: DatastoreServer.tokenB).text, "{\"rev\":2}")
        assertSoft(try ds.snapshot(h, token: DatastoreServer.tokenC), "notfound")
    }
}
