import XCTest
@testable import ParseAPI
import HTTP

final class RateLimiterTests: XCTestCase {
    private func status(_ limiter: RateLimiter, _ path: String, caller: Caller = .publicCaller) -> Int {
        do {
            try limiter.check(path: path, method: "POST", caller: caller, clientAddress: "10.0.0.1")
            return 200
        } catch let e as ParseError {
            return e.status
        } catch {
            return -1
        }
    }

    func testExactAndGlobRulesEachCountTheirPaths() {
        var glob = RateLimitRule(path: "/classes/*", windowSeconds: 60, count: 2)
        glob.message = "slow down"
        let limiter = RateLimiter(rules: [RateLimitRule(path: "/login", windowSeconds: 60, count: 1), glob,
                                          RateLimitRule(path: "/classes/Recipe", windowSeconds: 60, count: 5)])
        XCTAssertEqual(status(limiter, "/login"), 200)
        XCTAssertEqual(status(limiter, "/login"), 429)
        XCTAssertEqual(status(limiter, "/classes/Recipe"), 200)
        XCTAssertEqual(status(limiter, "/classes/Other"), 200)
        // The glob rule has counted both class paths; the exact rule for Recipe only its own.
        XCTAssertEqual(status(limiter, "/classes/Recipe"), 429)
        XCTAssertEqual(status(limiter, "/users"), 200)
        XCTAssertEqual(status(limiter, "/classes/Other", caller: .master), 200, "the master key is not limited by default")
    }
}
