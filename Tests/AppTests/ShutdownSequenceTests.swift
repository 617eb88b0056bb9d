import Foundation
import Logging
import Synchronization
import XCTest
@testable import App

/// The stop order and its bound: drain, close storage, cancel what outlasts the grace, give up after the
/// unwind time. Storage and server are stand-ins that block the way stuck work does.
final class ShutdownSequenceTests: XCTestCase {
    private let quiet = Logger(label: "shutdown-tests") { _ in SwiftLogNoOpLogHandler() }

    private func sequence() -> ShutdownSequence {
        ShutdownSequence(grace: .milliseconds(200), unwindTime: .milliseconds(300), logger: quiet)
    }

    func testEverythingDoneWithinTheGraceIsACleanStop() {
        let order = Mutex<[String]>([])
        let interrupts = Atomic<Int>(0)
        let outcome = sequence().run(drain: { order.withLock { $0.append("drain") }; return true },
                                     close: { order.withLock { $0.append("close") } },
                                     interrupt: { interrupts.add(1, ordering: .relaxed) })
        XCTAssertEqual(outcome, .clean)
        XCTAssertEqual(outcome.exitStatus, 0)
        XCTAssertEqual(order.withLock { $0 }, ["drain", "close"])
        XCTAssertEqual(interrupts.load(ordering: .relaxed), 0)
    }

    func testConnectionsCutOffByTheGraceMakeACancelledStop() {
        let outcome = sequence().run(drain: { false }, close: {}, interrupt: {})
        XCTAssertEqual(outcome, .cancelled)
        XCTAssertEqual(outcome.exitStatus, 3)
    }

    func testWorkHoldingStorageAfterTheGraceIsInterruptedUntilStorageCloses() {
        // Storage closes only after three interrupts: a handler running statement after statement.
        let interrupts = Atomic<Int>(0)
        let outcome = sequence().run(drain: { true }, close: {
            while interrupts.load(ordering: .acquiring) < 3 { usleep(1_000) }
        }, interrupt: { interrupts.add(1, ordering: .releasing) })
        XCTAssertEqual(outcome, .cancelled)
        XCTAssertGreaterThanOrEqual(interrupts.load(ordering: .relaxed), 3)
    }

    func testWorkThatIgnoresInterruptsIsAbandonedAfterTheUnwindTime() {
        let release = DispatchSemaphore(value: 0)
        let interrupts = Atomic<Int>(0)
        // A close that waits for work outside SQLite: it ignores interrupts.
        let outcome = sequence().run(drain: { true }, close: { release.wait() },
                                     interrupt: { interrupts.add(1, ordering: .relaxed) })
        XCTAssertEqual(outcome, .abandoned)
        XCTAssertEqual(outcome.exitStatus, 3)
        XCTAssertGreaterThan(interrupts.load(ordering: .relaxed), 0)
        release.signal()
    }

    func testADrainThatNeverReturnsIsAbandonedToo() {
        let release = DispatchSemaphore(value: 0)
        let closed = Atomic<Bool>(false)
        let outcome = sequence().run(drain: { release.wait(); return true },
                                     close: { closed.store(true, ordering: .relaxed) }, interrupt: {})
        XCTAssertEqual(outcome, .abandoned)
        XCTAssertFalse(closed.load(ordering: .relaxed))
        release.signal()
    }
}
