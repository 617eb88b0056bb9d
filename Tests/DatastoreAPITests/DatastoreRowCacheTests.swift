import XCTest
import Foundation
import Core
import Storage
@testable import DatastoreAPI

/// The datastore rows the writer keeps (`SQLiteDatastoreStore.writerDatastores`): deltas in one transaction
/// see each other, failed ones leave no trace, and a delete is never undone by a delta committed with it.
final class DatastoreRowCacheTests: XCTestCase {
    private func request(_ handle: String, rev: Int64, _ changes: String) throws -> PutDeltaRequest {
        let json = try JSONParser.parse(changes)
        return PutDeltaRequest(handle: handle, rev: rev, nonce: "", delta: try ChangeParser.parse(json),
                               changesJSON: JSONWriter.serialize(json))
    }

    private func insert(_ i: Int) -> String { #"[["I","t","r\#(i)",{"n":\#(i)}]]"# }

    /// Runs `submit` while the writer is held by a job that sleeps, so that everything submitted lands in the
    /// group commit after it; returns the outcomes in submission order.
    private func inOneBatch(_ f: StoreFixture, _ calls: [(@escaping @Sendable (Result<PutOutcome, any Error>) -> Void) -> Void])
        throws -> [Result<PutOutcome, any Error>] {
        let held = DispatchSemaphore(value: 0)
        f.storage.write({ _ in usleep(100_000) }, completion: { _ in held.signal() })
        let boxes = calls.map { _ in ResultBox<PutOutcome>() }
        let group = DispatchGroup()
        for (call, box) in zip(calls, boxes) {
            group.enter()
            call { box.set($0); group.leave() }
        }
        held.wait()
        group.wait()
        return boxes.map { $0.get() ?? .failure(StorageError.closed) }
    }

    func testDeltasOfOneTransactionSeeEachOtherAndAFailedOneLeavesNoTrace() throws {
        let f = try StoreFixture()
        let alice = try f.user("alice")
        let h = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }.handle
        let first = try request(h, rev: 0, insert(0)), later = try request(h, rev: 4, insert(4))
        XCTAssertEqual(try f.wait { f.store.putDelta(first, for: alice, completion: $0) }, .committed(rev: 1))
        let bad = try request(h, rev: 2, #"[["U","t","missing",{}]]"#)
        let requests = [try request(h, rev: 1, insert(1)), bad, try request(h, rev: 2, insert(2)),
                        try request(h, rev: 3, insert(3)), try request(h, rev: 3, insert(9))]
        let outcomes = try inOneBatch(f, requests.map { r in { f.store.putDelta(r, for: alice, completion: $0) } })
        XCTAssertEqual(try outcomes[0].get(), .committed(rev: 2))
        XCTAssertThrowsError(try outcomes[1].get(), "an update of a missing record fails the delta")
        XCTAssertEqual(try outcomes[2].get(), .committed(rev: 3))
        XCTAssertEqual(try outcomes[3].get(), .committed(rev: 4))
        XCTAssertEqual(try outcomes[4].get(), .conflict(rev: 3, current: 4))
        // The next delta, in a transaction of its own, starts from what that one committed.
        XCTAssertEqual(try f.wait { f.store.putDelta(later, for: alice, completion: $0) }, .committed(rev: 5))
        let read = try XCTUnwrap(try f.store.datastore(handle: h, for: alice))
        XCTAssertEqual(read.datastore.rev, 5)
        XCTAssertEqual(read.datastore.recordCount, 5)
        guard let (_, rows) = try f.store.snapshot(handle: h, for: alice) else { return XCTFail("no snapshot") }
        XCTAssertEqual(rows.map(\.rid).sorted(), ["r0", "r1", "r2", "r3", "r4"])
    }

    func testADeleteCommittedWithDeltasStaysDeleted() throws {
        let f = try StoreFixture()
        let alice = try f.user("alice")
        let h = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }.handle
        let first = try request(h, rev: 0, insert(0)), put = try request(h, rev: 1, insert(1))
        let after = try request(h, rev: 2, insert(2))
        XCTAssertEqual(try f.wait { f.store.putDelta(first, for: alice, completion: $0) }, .committed(rev: 1))
        let held = DispatchSemaphore(value: 0)
        f.storage.write({ _ in usleep(100_000) }, completion: { _ in held.signal() })
        let putBox = ResultBox<PutOutcome>(), deleteBox = ResultBox<DeleteOutcome>()
        let group = DispatchGroup()
        group.enter()
        f.store.putDelta(put, for: alice) { putBox.set($0); group.leave() }
        group.enter()
        f.store.delete(handle: h, for: alice) { deleteBox.set($0); group.leave() }
        held.wait()
        group.wait()
        XCTAssertEqual(try putBox.get()?.get(), .committed(rev: 2))
        XCTAssertEqual(try deleteBox.get()?.get(), .deleted)
        XCTAssertEqual(try f.wait { f.store.putDelta(after, for: alice, completion: $0) }, .notFound)
        XCTAssertNil(try f.store.datastore(handle: h, for: alice))
    }
}
