import XCTest
import Dispatch
@testable import Storage

/// The cap on heavy reads: overall, per client, waiting for a place and giving up at a deadline.
final class ReaderShareTests: XCTestCase {
    func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    func testTheLimitHoldsOverAllClients() {
        let share = ReaderShare(limit: 2, perClientLimit: 2, waitMilliseconds: 0)
        XCTAssertTrue(share.tryEnter(client: "a"))
        XCTAssertTrue(share.tryEnter(client: "b"))
        XCTAssertFalse(share.tryEnter(client: "c"))
        XCTAssertEqual(share.inUse, 2)
        share.leave(client: "a")
        XCTAssertTrue(share.tryEnter(client: "c"))
        XCTAssertFalse(share.tryEnter(client: "a"))
    }

    func testOneClientTakesAtMostItsShare() {
        let share = ReaderShare(limit: 4, perClientLimit: 1, waitMilliseconds: 0)
        XCTAssertTrue(share.tryEnter(client: "x"))
        XCTAssertFalse(share.tryEnter(client: "x"))
        XCTAssertTrue(share.tryEnter(client: "y"))
        share.leave(client: "x")
        XCTAssertTrue(share.tryEnter(client: "x"))
        // Leaving for a client that holds nothing changes nothing.
        share.leave(client: "nobody")
        XCTAssertEqual(share.inUse, 2)
    }

    func testAWaitEndsAtTheDeadlineWithoutAPlace() {
        let share = ReaderShare(limit: 1, perClientLimit: 1, waitMilliseconds: 0)
        XCTAssertTrue(share.tryEnter(client: "a"))
        XCTAssertFalse(share.enter(client: "b", untilUptimeNanoseconds: now() + 50_000_000))
        XCTAssertFalse(share.enter(client: "b", untilUptimeNanoseconds: 0))
        XCTAssertEqual(share.inUse, 1)
    }

    func testAWaiterGetsThePlaceThatComesFree() {
        let share = ReaderShare(limit: 1, perClientLimit: 1, waitMilliseconds: 0)
        XCTAssertTrue(share.tryEnter(client: "a"))
        let entered = expectation(description: "the waiter got the place")
        let waiting = DispatchSemaphore(value: 0)
        let deadline = now() + 60_000_000_000
        Thread.detachNewThread {
            waiting.signal()
            if share.enter(client: "b", untilUptimeNanoseconds: deadline) { entered.fulfill() }
        }
        waiting.wait()
        usleep(20_000)
        share.leave(client: "a")
        wait(for: [entered], timeout: 30)
        XCTAssertEqual(share.inUse, 1)
        XCTAssertFalse(share.tryEnter(client: "c"))
    }

    func testOptionsGiveHalfTheReadersByDefault() throws {
        var options = StorageOptions(path: "/tmp/x.sqlite3", readerCount: 8)
        XCTAssertEqual(options.effectiveHeavyReaderCount, 4)
        options.readerCount = 1
        XCTAssertEqual(options.effectiveHeavyReaderCount, 1)
        options.readerCount = 3
        options.heavyReaderCount = 10
        XCTAssertEqual(options.effectiveHeavyReaderCount, 3)
        options.heavyReaderCount = 0
        XCTAssertThrowsError(try options.validate())
        options.heavyReaderCount = nil
        options.heavyReadersPerClient = 0
        XCTAssertThrowsError(try options.validate())
        options.heavyReadersPerClient = 1
        options.heavyReadWaitMilliseconds = -1
        XCTAssertThrowsError(try options.validate())
        options.heavyReadWaitMilliseconds = 0
        XCTAssertNoThrow(try options.validate())
    }
}
