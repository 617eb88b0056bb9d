import Foundation
import XCTest
@testable import Storage

final class WriteAndWaitTests: XCTestCase {
    private struct Boom: Error, Equatable {}

    func testReturnsValueAfterCommit() throws {
        let (storage, _) = try makeStorage(self)
        let id = try storage.writeAndWait { ctx -> Int64 in
            try ctx.db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)")
            try ctx.db.run("INSERT INTO t (s) VALUES (?)", ["x"])
            return ctx.db.lastInsertRowID
        }
        XCTAssertEqual(id, 1)
        // Returned only once durable, so a reader sees it immediately.
        XCTAssertEqual(try storage.read { try $0.queryOne("SELECT s FROM t WHERE id = ?", [.integer(id)])?[0] }, .text("x"))
    }

    func testRethrowsTheJobsError() throws {
        let (storage, _) = try makeStorage(self)
        XCTAssertThrowsError(try storage.writeAndWait { _ -> Int in throw Boom() }) {
            XCTAssertEqual($0 as? Boom, Boom())
        }
    }

    func testNestedWriteAndWaitFromAJobIsRefused() throws {
        let (storage, _) = try makeStorage(self)
        let inner = try storage.writeAndWait { _ -> String in
            do {
                try storage.writeAndWait { _ in () }
                return "no error"
            } catch let error as StorageError {
                if case .misuse = error { return "misuse" }
                return "\(error)"
            }
        }
        XCTAssertEqual(inner, "misuse")
    }

    func testAfterCloseThrowsClosed() throws {
        let (storage, _) = try makeStorage(self)
        storage.close()
        assertStorageError(try storage.writeAndWait { _ in 1 }) { $0 == .closed }
    }
}
