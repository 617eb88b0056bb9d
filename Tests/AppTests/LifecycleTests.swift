import XCTest
@testable import App

final class LifecycleTests: XCTestCase {
    func testStartsAndMovesThroughEveryState() {
        let lifecycle = Lifecycle()
        XCTAssertEqual(lifecycle.state, .starting)
        for state in [LifecycleState.ready, .draining, .starting, .ready] {
            lifecycle.set(state)
            XCTAssertEqual(lifecycle.state, state)
        }
    }

    func testConcurrentReadersSeeOnlyStatesThatWereSet() {
        let lifecycle = Lifecycle()
        lifecycle.set(.ready)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<2_000 {
                if index == 0 { lifecycle.set(round % 2 == 0 ? .draining : .ready) }
                XCTAssertNotEqual(lifecycle.state, .starting)
            }
        }
    }
}
