import XCTest
@testable import HTTP

/// The request body deadline: slack to start, then a minimum rate with at most the slack banked.
final class BodyDeadlineTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000
    /// 10 s of slack, 1,000 bytes per second (1 ms per byte).
    private var rule: BodyDeadline { BodyDeadline(slackNanos: 10 * second, minBytesPerSecond: 1000) }

    func testTheBodyGetsTheSlackToStart() {
        XCTAssertEqual(rule.start(now: 5 * second), 15 * second)
    }

    func testEachByteBuysTimeAtTheMinimumRate() {
        let start = rule.start(now: 0)
        // 375 bytes every half second (750 B/s, below the rate) for 19.5 s: 14,625 bytes buy 14.625 s.
        var deadline = start
        for tick in 1..<40 {
            deadline = rule.extended(deadline, bytes: 375, now: UInt64(tick) * second / 2)
        }
        XCTAssertEqual(deadline, start + 14_625 * second / 1000)
        // Still in time at 20 s, but the body falls further behind with every second at that pace.
        XCTAssertGreaterThan(deadline, 20 * second)
        XCTAssertLessThan(deadline, 20 * second + rule.slack)
    }

    func testAByteEveryFewSecondsRunsOut() {
        // One byte every 3 s: each buys 1 ms, so the body is late soon after the slack is used up.
        var deadline = rule.start(now: 0)
        var now: UInt64 = 0
        while now < deadline {
            now += 3 * second
            if now < deadline { deadline = rule.extended(deadline, bytes: 1, now: now) }
        }
        XCTAssertLessThanOrEqual(now, 12 * second)
        XCTAssertEqual(deadline, 10 * second + 3 * 1_000_000)
    }

    func testABurstBanksAtMostTheSlack() {
        // A megabyte at once would buy 1,000 s; it buys 10 s from now.
        let deadline = rule.extended(rule.start(now: 0), bytes: 1 << 20, now: 2 * second)
        XCTAssertEqual(deadline, 12 * second)
    }

    func testASteadyUploadAtTheRateNeverRunsOut() {
        var deadline = rule.start(now: 0)
        for tick in 1...3_600 {
            let now = UInt64(tick) * second
            XCTAssertLessThan(now, deadline)
            deadline = rule.extended(deadline, bytes: 1000, now: now)
        }
    }

    func testALateArrivalDoesNotRescueABodyThatFellBehind() {
        // The deadline passed (the sweep has not run yet); a few bytes do not move it past now.
        let deadline = rule.extended(10 * second, bytes: 100, now: 11 * second)
        XCTAssertLessThan(deadline, 11 * second)
    }

    func testRateZeroIsAWholeBodyDeadline() {
        let total = BodyDeadline(slackNanos: 10 * second, minBytesPerSecond: 0)
        XCTAssertEqual(total.extended(total.start(now: 0), bytes: 1 << 30, now: 5 * second), 10 * second)
    }

    func testHugeCountsDoNotOverflow() {
        let fast = BodyDeadline(slackNanos: 10 * second, minBytesPerSecond: 1)
        XCTAssertEqual(fast.extended(.max - 5, bytes: .max, now: second), 11 * second)
        XCTAssertEqual(fast.extended(0, bytes: -1, now: second), 0)
    }
}
