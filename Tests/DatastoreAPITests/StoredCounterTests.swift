import XCTest
import Core
import Storage
@testable import DatastoreAPI

/// Counters read back from `ds_datastore` (rev, size, record count) are data, not promises: a damaged or
/// hand-edited row must give an error for that datastore, never stop the process.
final class StoredCounterTests: XCTestCase {
    private func put(_ f: StoreFixture, _ user: DatastoreUser, _ handle: String, rev: Int64,
                     _ changes: String) throws -> PutOutcome {
        let json = try JSONParser.parse(changes)
        let request = PutDeltaRequest(handle: handle, rev: rev, nonce: "", delta: try ChangeParser.parse(json),
                                      changesJSON: JSONWriter.serialize(json))
        return try f.wait { f.store.putDelta(request, for: user, completion: $0) }
    }

    /// A datastore whose stored row has `assignment` applied (e.g. `rev = 9223372036854775807`).
    private func damagedDatastore(_ assignment: String) throws -> (StoreFixture, DatastoreUser, String) {
        let f = try StoreFixture()
        let alice = try f.user("alice")
        let handle = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }.handle
        try f.storage.writeAndWait { ctx in
            _ = try ctx.db.run("UPDATE ds_datastore SET \(assignment) WHERE handle = ?", [.text(handle)])
        }
        return (f, alice, handle)
    }

    func testPutOnMaximumStoredRevisionFailsInsteadOfOverflowing() throws {
        let (f, alice, handle) = try damagedDatastore("rev = 9223372036854775807")
        XCTAssertThrowsError(try put(f, alice, handle, rev: Int64.max, "[]"))
        XCTAssertEqual(try f.store.datastore(handle: handle, for: alice)?.datastore.rev, Int64.max)
    }

    func testPutOnHugeStoredSizeIsRefusedInsteadOfOverflowing() throws {
        let (f, alice, handle) = try damagedDatastore("size = 9223372036854775807")
        XCTAssertThrowsError(try put(f, alice, handle, rev: 0, "[[\"I\",\"t\",\"r\",{\"a\":\"x\"}]]")) { error in
            guard case .invalidDelta(let message)? = error as? DatastoreStoreError else {
                return XCTFail("unexpected error \(error)")
            }
            XCTAssertTrue(message.contains("datastore too large"), message)
        }
    }

    func testSnapshotWithHugeStoredRecordCountAnswers() throws {
        let (f, alice, handle) = try damagedDatastore("record_count = 9223372036854775807")
        let snapshot = try f.store.snapshot(handle: handle, for: alice)
        XCTAssertEqual(snapshot?.1.count, 0)
        XCTAssertEqual(snapshot?.0.datastore.recordCount, Int.max)
    }

    func testSizeCheckRefusesTotalsThatWouldOverflow() {
        var copy = WorkingCopy { _ in (fields: JSONObject(), size: Int.max) }
        let position = try? copy.position(of: RecordKey(tid: "t", rid: "r"))
        XCTAssertEqual(position, 0)
        copy.set(at: 0, nil, change: 0)
        XCTAssertThrowsError(try SizeCheck.check(copy, deltaSize: 100, datastoreSize: Int.min, recordCount: 0,
                                                 limits: SizeLimits(headroomPercent: 10)))
    }
}
