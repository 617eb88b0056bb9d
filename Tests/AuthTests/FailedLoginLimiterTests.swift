import XCTest
@testable import Auth

final class FailedLoginLimiterTests: XCTestCase {
    /// One failed attempt from `address` at `now`.
    private func fail(_ limiter: FailedLoginLimiter, _ address: String, at now: Double) {
        XCTAssertEqual(limiter.begin(address, now: now), .admitted, "\(address) at \(now)")
        limiter.finish(address, failed: true, now: now)
    }

    func testEleventhAttemptWithinTheWindowIsRefusedUntilItEnds() {
        let limiter = FailedLoginLimiter(policy: FailedLoginPolicy(maxFailures: 10, windowSeconds: 60))
        for i in 0..<10 { fail(limiter, "10.0.0.1", at: 100 + Double(i)) }
        XCTAssertEqual(limiter.begin("10.0.0.1", now: 110), .refused(retryAfterSeconds: 50))
        XCTAssertEqual(limiter.refusal(for: "10.0.0.1", now: 159.5), 1)
        // Another address is not affected.
        XCTAssertEqual(limiter.begin("10.0.0.2", now: 110), .admitted)
        limiter.finish("10.0.0.2", failed: false, now: 110)
        // The window counts from the first failure: at 160 the address starts afresh.
        XCTAssertNil(limiter.refusal(for: "10.0.0.1", now: 160))
        fail(limiter, "10.0.0.1", at: 160)
        XCTAssertNil(limiter.refusal(for: "10.0.0.1", now: 161))
    }

    func testSuccessesAreNotCountedAndDoNotForgetFailures() {
        let limiter = FailedLoginLimiter(policy: FailedLoginPolicy(maxFailures: 3, windowSeconds: 60))
        fail(limiter, "a", at: 0)
        fail(limiter, "a", at: 1)
        for t in 2..<20 {
            XCTAssertEqual(limiter.begin("a", now: Double(t)), .admitted)
            limiter.finish("a", failed: false, now: Double(t))
        }
        // A success in between does not reset the count: the third failure still blocks.
        fail(limiter, "a", at: 20)
        XCTAssertEqual(limiter.begin("a", now: 21), .refused(retryAfterSeconds: 39))
    }

    func testAttemptsUnderWayCountAgainstTheLimit() {
        let limiter = FailedLoginLimiter(policy: FailedLoginPolicy(maxFailures: 3, windowSeconds: 60))
        // Three guesses sent at once are all admitted; a fourth is refused before any has failed.
        for _ in 0..<3 { XCTAssertEqual(limiter.begin("a", now: 0), .admitted) }
        XCTAssertEqual(limiter.begin("a", now: 0), .refused(retryAfterSeconds: 1))
        // Nothing has failed yet, so a check that reserves nothing lets the address through.
        XCTAssertNil(limiter.refusal(for: "a", now: 0))
        limiter.finish("a", failed: false, now: 0)
        XCTAssertEqual(limiter.begin("a", now: 0), .admitted)
        for _ in 0..<3 { limiter.finish("a", failed: true, now: 1) }
        XCTAssertEqual(limiter.refusal(for: "a", now: 1), 59)
    }

    func testSuccessfulAttemptsLeaveNothingBehind() {
        let limiter = FailedLoginLimiter(policy: FailedLoginPolicy())
        for i in 0..<100 {
            XCTAssertEqual(limiter.begin("10.1.0.\(i)", now: 0), .admitted)
            limiter.finish("10.1.0.\(i)", failed: false, now: 0)
        }
        XCTAssertEqual(limiter.trackedAddresses, 0)
    }

    func testAFloodOfAddressesKeepsTheTableBounded() {
        let limiter = FailedLoginLimiter(policy: FailedLoginPolicy(maxFailures: 2, windowSeconds: 60), capacity: 64)
        fail(limiter, "victim", at: 0)
        fail(limiter, "victim", at: 0)
        for i in 0..<1_000 {
            fail(limiter, "flood-\(i)", at: 1 + Double(i) / 1000)
            XCTAssertLessThanOrEqual(limiter.trackedAddresses, 64)
        }
        // The oldest window gave way first, so the most recent addresses are still counted.
        fail(limiter, "flood-999", at: 2)
        XCTAssertNotNil(limiter.refusal(for: "flood-999", now: 2))
    }

    func testEndedWindowsAreDroppedBeforeLiveOnes() {
        let limiter = FailedLoginLimiter(policy: FailedLoginPolicy(maxFailures: 1, windowSeconds: 10), capacity: 4)
        fail(limiter, "live", at: 95)
        for i in 0..<3 { fail(limiter, "old-\(i)", at: 0) }
        XCTAssertEqual(limiter.trackedAddresses, 4)
        fail(limiter, "new", at: 100)
        XCTAssertEqual(limiter.trackedAddresses, 2, "the three ended windows were dropped")
        XCTAssertEqual(limiter.refusal(for: "live", now: 100), 5)
    }
}
