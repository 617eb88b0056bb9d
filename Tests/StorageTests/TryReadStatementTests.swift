import Foundation
import XCTest
@testable import Storage

/// `Storage.tryReadStatement`: reads like `readStatement` when a connection of its pool is free, nil at once
/// when none is.
final class TryReadStatementTests: XCTestCase {
    func testReadsTheNewestCommitLikeReadStatement() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        XCTAssertEqual(try storage.tryReadStatement { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 1)
        try storage.writeAndWait { try $0.db.run("INSERT INTO t VALUES (2)") }
        XCTAssertEqual(try storage.tryReadStatement { try $0.queryOne("SELECT count(*) FROM t")?[0].int64 }, 2)
    }

    func testNilWithoutWaitingWhenEveryConnectionIsBorrowed() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n); INSERT INTO t VALUES (1)") }
        XCTAssertEqual(Storage.immediateReaderCount, 2)
        // Two nested calls hold both connections; the third finds none and must not wait for them.
        let innermost = try storage.tryReadStatement { _ in
            try storage.tryReadStatement { _ in
                try storage.tryReadStatement { db in try db.queryOne("SELECT n FROM t")?[0].int64 }
            }
        }
        guard let innermost, let inner = innermost else { return XCTFail("the two free connections were not lent") }
        XCTAssertNil(inner)
        // Given back: lent again.
        XCTAssertEqual(try storage.tryReadStatement { try $0.queryOne("SELECT n FROM t")?[0].int64 }, 1)
    }

    func testThrowsAfterClose() throws {
        let (storage, _) = try makeStorage(self)
        storage.close()
        XCTAssertThrowsError(try storage.tryReadStatement { _ in 1 }) { error in
            XCTAssertEqual(error as? StorageError, .closed)
        }
    }
}
