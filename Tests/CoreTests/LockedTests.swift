import Dispatch
import XCTest
@testable import Core

final class LockedTests: XCTestCase {
    /// Read-modify-write from many threads at once loses no update.
    func testConcurrentUpdatesAreSerialized() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                counter.withLock { value in
                    let seen = value
                    value = seen + 1
                }
            }
        }
        XCTAssertEqual(counter.withLock { $0 }, 80_000)
    }

    func testWithLockReturnsAndRethrows() {
        struct Failure: Error {}
        let names = Locked(["a"])
        XCTAssertEqual(names.withLock { names -> Int in names.append("b"); return names.count }, 2)
        XCTAssertThrowsError(try names.withLock { _ in throw Failure() })
        XCTAssertEqual(names.withLock { $0 }, ["a", "b"])
    }
}
