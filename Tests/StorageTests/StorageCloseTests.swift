import Foundation
import XCTest
@testable import Storage

final class StorageCloseTests: XCTestCase {
    func testCloseFromCompletionHandlerDoesNotDeadlock() throws {
        let (storage, _) = try makeStorage(self)
        let closed = DispatchSemaphore(value: 0)
        storage.write({ _ in 1 }, completion: { _ in
            storage.close()
            closed.signal()
        })
        XCTAssertEqual(closed.wait(timeout: .now() + 10), .success)
        assertStorageError(try storage.writeAndWait { _ in 1 }) { $0 == .closed }
    }

    func testCloseCheckpointsTheWAL() throws {
        let (storage, dir) = try makeStorage(self)
        try storage.writeAndWait { ctx in
            try ctx.db.execute("CREATE TABLE t (n)")
            for i in 0..<100 { try ctx.db.run("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) }
        }
        storage.close()
        // Everything is in the main file: the WAL is gone or empty.
        XCTAssertEqual(FileIO.fileSize(dir + "/test.sqlite3-wal") ?? 0, 0)
        let db = try Database(path: dir + "/test.sqlite3", readOnly: true)
        XCTAssertEqual(try db.queryOne("SELECT count(*) FROM t")?[0], .integer(100))
    }
}
