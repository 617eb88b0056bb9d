import XCTest
import Core
@testable import DatastoreAPI

/// The memoised await reader: one prefetch serves many cursors, access is decided per user, and cursors
/// beyond a capped prefetch fall back to their own query.
final class AwaitReaderTests: XCTestCase {
    func testPrefetchSlicesPerCursorAndChecksAccess() throws {
        let f = try StoreFixture()
        let alice = try f.user("alice"), bob = try f.user("bob")
        let h = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }.handle
        for rev in 0..<6 {
            let json = try JSONParser.parse("[[\"I\",\"t\",\"r\(rev)\",{}]]")
            let request = PutDeltaRequest(handle: h, rev: Int64(rev), nonce: "n\(rev)", delta: try ChangeParser.parse(json),
                                          changesJSON: JSONWriter.serialize(json))
            XCTAssertEqual(try f.wait { f.store.putDelta(request, for: alice, completion: $0) }, .committed(rev: Int64(rev + 1)))
        }
        let cap = DeltaBatchCap(maxDeltas: 3, maxBytes: 1 << 20)
        try f.store.readForAwait { reader in
            try reader.prefetch(handle: h, from: 1, cap: cap)
            guard case .deltas(let fromTwo, let access) = try reader.deltas(handle: h, from: 2, for: alice, cap: cap) else {
                return XCTFail("no deltas")
            }
            XCTAssertEqual(fromTwo.map(\.rev), [2, 3])
            XCTAssertNil(access.wireRole)
            // Beyond the capped prefetch (revs 1–3): its own query, still capped and contiguous.
            guard case .deltas(let fromFour, _) = try reader.deltas(handle: h, from: 4, for: alice, cap: cap) else {
                return XCTFail("no deltas")
            }
            XCTAssertEqual(fromFour.map(\.rev), [4, 5])
            XCTAssertEqual(try reader.deltas(handle: h, from: 1, for: bob, cap: cap), .notFound)
            XCTAssertEqual(try reader.deltas(handle: h, from: 9, for: alice, cap: cap), .ahead(current: 6))
            guard case .deltas(let none, _) = try reader.deltas(handle: h, from: 6, for: alice, cap: cap) else {
                return XCTFail("current cursor")
            }
            XCTAssertTrue(none.isEmpty)
            XCTAssertEqual(try reader.list(for: alice).map(\.handle), [h])
            XCTAssertEqual(try reader.list(for: bob), [])
        }
    }
}
