import XCTest
import Core
import Auth
@testable import DatastoreAPI

/// The SQLite store on a real temporary database: creation, put_delta outcomes, snapshot, deltas, roles.
final class StoreTests: XCTestCase {
    private func put(_ f: StoreFixture, _ user: DatastoreUser, _ handle: String, rev: Int64, _ changes: String,
                     nonce: String = "") throws -> PutOutcome {
        let json = try JSONParser.parse(changes)
        let request = PutDeltaRequest(handle: handle, rev: rev, nonce: nonce, delta: try ChangeParser.parse(json),
                                      changesJSON: JSONWriter.serialize(json))
        return try f.wait { f.store.putDelta(request, for: user, completion: $0) }
    }

    func testCreatePutSnapshotAndDeltas() throws {
        let f = try StoreFixture()
        let alice = try f.user("alice")
        XCTAssertEqual(alice.uid, 1)
        let created = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }
        XCTAssertTrue(created.created)
        let again = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }
        XCTAssertEqual(again, CreateOutcome(handle: created.handle, rev: 0, created: false))
        XCTAssertEqual(created.handle.utf8.count, 16)

        let h = created.handle
        XCTAssertEqual(try put(f, alice, h, rev: 0, "[[\"I\",\"t\",\"r1\",{\"a\":{\"I\":\"1\"},\"f\":1.50}]]", nonce: "n1"),
                       .committed(rev: 1))
        XCTAssertEqual(try put(f, alice, h, rev: 0, "[]", nonce: "n2"), .conflict(rev: 0, current: 1))
        XCTAssertEqual(try put(f, alice, h, rev: 0, "[]", nonce: "n1"), .retried(rev: 1))
        XCTAssertEqual(try put(f, alice, h, rev: 0, "[]"), .conflict(rev: 0, current: 1))
        XCTAssertEqual(try put(f, alice, h, rev: 7, "[]"), .conflict(rev: 7, current: 1))
        XCTAssertThrowsError(try put(f, alice, h, rev: 1, "[[\"U\",\"t\",\"r1\",{}],[\"U\",\"t\",\"nope\",{}]]"))
        XCTAssertEqual(try put(f, alice, h, rev: 1, "[[\"U\",\"t\",\"r1\",{\"l\":[\"LI\",0,\"x\"]}],[\"I\",\":info\",\"info\",{}]]"),
                       .committed(rev: 2))

        guard let (access, rows) = try f.store.snapshot(handle: h, for: alice) else { return XCTFail("no snapshot") }
        XCTAssertEqual(access.datastore.rev, 2)
        XCTAssertEqual(rows.map(\.tid), [":info", "t"])
        XCTAssertEqual(rows.last?.fieldsJSON, "{\"a\":{\"I\":\"1\"},\"f\":1.50,\"l\":[\"x\"]}")
        XCTAssertEqual(access.datastore.recordCount, 2)
        XCTAssertEqual(access.datastore.size, 1000 + 100 + (100 + 100 + 100 + 21) + 100)

        guard case .deltas(let deltas, _) = try f.store.deltas(handle: h, from: 0, for: alice,
                                                               cap: DeltaBatchCap(maxDeltas: 10, maxBytes: 1 << 20)) else {
            return XCTFail("no deltas")
        }
        XCTAssertEqual(deltas.map(\.rev), [0, 1])
        XCTAssertEqual(deltas.map(\.nonce), ["n1", ""])
        XCTAssertEqual(try f.store.deltas(handle: h, from: 5, for: alice, cap: DeltaBatchCap(maxDeltas: 1, maxBytes: 1)),
                       .ahead(current: 2))
        let capped = try f.store.deltas(handle: h, from: 0, for: alice, cap: DeltaBatchCap(maxDeltas: 1, maxBytes: 1))
        if case .deltas(let one, _) = capped { XCTAssertEqual(one.map(\.rev), [0]) } else { XCTFail("cap") }
    }

    func testPrivateIsolationAndSharingRoles() throws {
        let f = try StoreFixture()
        let alice = try f.user("alice"), bob = try f.user("bob"), carol = try f.user("carol")
        let mine = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }
        XCTAssertNil(try f.store.datastore(handle: mine.handle, for: bob))
        XCTAssertEqual(try put(f, bob, mine.handle, rev: 0, "[]"), .notFound)

        let dsid = Identifiers.shareableDsid(forKey: "abc")
        let shared = try f.wait { f.store.createShareable(dsid: dsid, for: alice, completion: $0) }
        XCTAssertTrue(shared.created)
        XCTAssertThrowsError(try f.wait { f.store.createShareable(dsid: dsid, for: bob, completion: $0) })
        XCTAssertNil(try f.store.datastore(dsid: dsid, for: bob))
        XCTAssertEqual(try put(f, alice, shared.handle, rev: 0,
                               "[[\"I\",\":acl\",\"public\",{\"role\":{\"I\":\"1000\"}}],[\"I\",\":acl\",\"u2\",{\"role\":{\"I\":\"2000\"}}]]"),
                       .committed(rev: 1))
        XCTAssertEqual(try f.store.datastore(dsid: dsid, for: bob)?.role, Role.editor)
        XCTAssertEqual(try f.store.datastore(dsid: dsid, for: carol)?.role, Role.viewer)
        XCTAssertEqual(try put(f, carol, shared.handle, rev: 1, "[]"), .accessDenied)
        XCTAssertEqual(try f.store.listDatastores(for: bob).map(\.role), [Role.editor])
        XCTAssertEqual(try f.store.listDatastores(for: carol), [])
        XCTAssertEqual(try f.wait { f.store.delete(handle: shared.handle, for: bob, completion: $0) }, .accessDenied)
        XCTAssertEqual(try f.wait { f.store.delete(handle: shared.handle, for: alice, completion: $0) }, .deleted)
        XCTAssertNil(try f.store.datastore(handle: shared.handle, for: alice))
        let recreated = try f.wait { f.store.createShareable(dsid: dsid, for: bob, completion: $0) }
        XCTAssertTrue(recreated.created)
        XCTAssertNotEqual(recreated.handle, shared.handle)
    }

    func testTokensAreHashedAndRevocable() throws {
        let f = try StoreFixture()
        let (user, token) = try DatastoreTokens.issue(userName: "alice", store: f.store, source: "cli")
        XCTAssertEqual(try f.store.user(forTokenHash: TokenHasher.hash(token)), user)
        XCTAssertTrue(try DatastoreTokens.revoke(token, store: f.store))
        XCTAssertFalse(try DatastoreTokens.revoke(token, store: f.store))
        XCTAssertNil(try f.store.user(forTokenHash: TokenHasher.hash(token)))
        let (again, _) = try DatastoreTokens.issue(userName: "alice", store: f.store, source: "cli")
        XCTAssertEqual(again.uid, user.uid)
    }
}
