import Core
import Synchronization
import XCTest
@testable import HTTP

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    private let seconds = Mutex<Double>(1000)
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
    var read: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
}

final class RateLimiterTests: XCTestCase {
    private let elsewhere = RateLimitSubject(clientAddress: "10.0.0.1")

    private func status(_ limiter: RateLimiter, _ path: String, _ subject: RateLimitSubject? = nil,
                        method: String = "POST") -> Int {
        limiter.check(path: path, method: method, subject: subject ?? elsewhere) == nil ? 200 : 429
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
        XCTAssertEqual(limiter.check(path: "/classes/Recipe", method: "POST", subject: elsewhere)?.rule.message, "slow down")
        XCTAssertEqual(status(limiter, "/users"), 200)
        let master = RateLimitSubject(clientAddress: "10.0.0.1", isPrivileged: true)
        XCTAssertEqual(status(limiter, "/classes/Other", master), 200, "privileged callers are not limited by default")
    }

    func testGlobsMatchPiecesInOrder() {
        let rule = RateLimitRule(path: "/a/*/b*c", windowSeconds: 1, count: 1)
        XCTAssertTrue(rule.matches("/a/x/y/bzzc"))
        XCTAssertTrue(rule.matches("/a//bc"))
        XCTAssertFalse(rule.matches("/a/x/c"))
        XCTAssertFalse(rule.matches("/b/x/bc"))
        XCTAssertTrue(RateLimitRule(path: "*", windowSeconds: 1, count: 1).matches("/anything/at/all"))
    }

    func testTheWindowIsFixedFromTheFirstRequest() {
        let clock = ManualClock()
        let limiter = RateLimiter(rules: [RateLimitRule(path: "/x", windowSeconds: 10, count: 2)], clock: clock.read)
        XCTAssertEqual(status(limiter, "/x"), 200)
        clock.advance(6)
        XCTAssertEqual(status(limiter, "/x"), 200)
        XCTAssertEqual(limiter.check(path: "/x", method: "POST", subject: elsewhere)?.retryAfterSeconds, 4)
        clock.advance(3.5)
        XCTAssertEqual(status(limiter, "/x"), 429, "refused requests do not move the window")
        clock.advance(0.5)
        XCTAssertEqual(status(limiter, "/x"), 200, "a new window starts 10 s after the first request")
    }

    func testZonesChooseWhoSharesACounter() {
        func rule(_ zone: RateLimitZone) -> RateLimitRule {
            var r = RateLimitRule(path: "/\(zone.rawValue)", windowSeconds: 60, count: 1)
            r.zone = zone
            return r
        }
        let limiter = RateLimiter(rules: RateLimitZone.allCases.map(rule))
        let alice1 = RateLimitSubject(clientAddress: "10.0.0.1", user: "alice", session: "s1")
        let alice2 = RateLimitSubject(clientAddress: "10.0.0.2", user: "alice", session: "s2")
        let bob1 = RateLimitSubject(clientAddress: "10.0.0.1", user: "bob", session: "s3")
        XCTAssertEqual(status(limiter, "/ip", alice1), 200)
        XCTAssertEqual(status(limiter, "/ip", bob1), 429, "same address")
        XCTAssertEqual(status(limiter, "/ip", alice2), 200)
        XCTAssertEqual(status(limiter, "/user", alice1), 200)
        XCTAssertEqual(status(limiter, "/user", alice2), 429, "same user from another address")
        XCTAssertEqual(status(limiter, "/user", bob1), 200)
        XCTAssertEqual(status(limiter, "/session", alice1), 200)
        XCTAssertEqual(status(limiter, "/session", alice2), 200, "another session of the same user")
        XCTAssertEqual(status(limiter, "/session", RateLimitSubject(clientAddress: "10.0.0.9")), 200)
        XCTAssertEqual(status(limiter, "/session", RateLimitSubject(clientAddress: "10.0.0.9")), 429,
                       "without a session the address counts")
        XCTAssertEqual(status(limiter, "/global", alice1), 200)
        XCTAssertEqual(status(limiter, "/global", bob1), 429)
    }

    func testMethodsLoopbackAndPrivilegedCallers() {
        var posts = RateLimitRule(path: "/p", windowSeconds: 60, count: 1)
        posts.methods = ["POST"]
        var everyone = RateLimitRule(path: "/e", windowSeconds: 60, count: 1)
        everyone.includeLoopback = true
        everyone.includePrivileged = true
        let limiter = RateLimiter(rules: [posts, everyone])
        XCTAssertEqual(status(limiter, "/p", method: "GET"), 200)
        XCTAssertEqual(status(limiter, "/p", method: "GET"), 200, "GET is not counted")
        XCTAssertEqual(status(limiter, "/p"), 200)
        XCTAssertEqual(status(limiter, "/p"), 429)
        for address in ["127.0.0.1", "::1", "::ffff:127.0.0.1"] {
            XCTAssertEqual(status(limiter, "/p", RateLimitSubject(clientAddress: address)), 200, "\(address) is exempt")
        }
        let local = RateLimitSubject(clientAddress: "127.0.0.1", isPrivileged: true)
        XCTAssertEqual(status(limiter, "/e", local), 200)
        XCTAssertEqual(status(limiter, "/e", local), 429, "a rule may include loopback and privileged callers")
    }

    func testTheSubjectIsOnlyWorkedOutWhenARuleMatches() {
        let limiter = RateLimiter(rules: [RateLimitRule(path: "/login", windowSeconds: 60, count: 1)])
        var asked = 0
        func subject() -> RateLimitSubject {
            asked += 1
            return elsewhere
        }
        _ = limiter.check(path: "/classes/A", method: "GET", subject: subject())
        XCTAssertEqual(asked, 0)
        _ = limiter.check(path: "/login", method: "GET", subject: subject())
        XCTAssertEqual(asked, 1)
    }

    func testMemoryStaysBoundedUnderManyAddresses() {
        let limiter = RateLimiter(rules: [RateLimitRule(path: "/x", windowSeconds: 3600, count: 1)], maxTrackedKeys: 100)
        let regular = RateLimitSubject(clientAddress: "192.0.2.1")
        XCTAssertEqual(status(limiter, "/x", regular), 200)
        for i in 0..<10_000 {
            _ = limiter.check(path: "/x", method: "POST", subject: RateLimitSubject(clientAddress: "10.\(i / 256).\(i % 256).1"))
            if i % 40 == 0 {
                // A client seen at least once a generation keeps its counter.
                XCTAssertEqual(status(limiter, "/x", regular), 429)
            }
            XCTAssertLessThanOrEqual(limiter.trackedKeys, 100)
        }
    }

    func testLongKeysAreCut() {
        var rule = RateLimitRule(path: "/x", windowSeconds: 60, count: 1)
        rule.zone = .user
        let limiter = RateLimiter(rules: [rule])
        let prefix = String(repeating: "u", count: RateLimiter.maxKeyBytes)
        XCTAssertEqual(status(limiter, "/x", RateLimitSubject(clientAddress: "10.0.0.1", user: prefix + "a")), 200)
        XCTAssertEqual(status(limiter, "/x", RateLimitSubject(clientAddress: "10.0.0.1", user: prefix + "b")), 429)
    }

    func testRulesReadFromConfiguration() throws {
        let rules = try RateLimitRule.parse(try JSONParser.parse("""
            [{"requestPath": "/login", "requestTimeWindow": 30000, "requestCount": 5, "requestMethods": ["post"],
              "errorResponseMessage": "easy", "includeMasterKey": true, "includeInternalRequests": true, "zone": "user"},
             {"requestPath": "/classes/*", "requestTimeWindow": 1000, "requestCount": 0, "requestMethods": "GET"}]
            """), key: "x.rateLimit")
        XCTAssertEqual(rules.count, 2)
        XCTAssertEqual(rules[0].windowSeconds, 30)
        XCTAssertEqual(rules[0].methods, ["POST"])
        XCTAssertEqual(rules[0].message, "easy")
        XCTAssertTrue(rules[0].includePrivileged && rules[0].includeLoopback)
        XCTAssertEqual(rules[0].zone, .user)
        XCTAssertEqual(rules[1].methods, ["GET"])
        XCTAssertEqual(rules[1].zone, .ip)
        let single = try RateLimitRule.parse(.string(#"{"requestPath":"/a","requestTimeWindow":1,"requestCount":1}"#),
                                             key: "x.rateLimit")
        XCTAssertEqual(single.map(\.path), ["/a"], "one rule, as JSON text")
        for bad in [#"[{"requestPath":"/a"}]"#, #"[{"requestPath":"/a","requestTimeWindow":0,"requestCount":1}]"#,
                    #"[{"requestPath":"/a","requestTimeWindow":1,"requestCount":1,"zone":"planet"}]"#, "3"] {
            XCTAssertThrowsError(try RateLimitRule.parse(try JSONParser.parse(bad), key: "x.rateLimit"), bad) {
                XCTAssertEqual(($0 as? ConfigError)?.key, "x.rateLimit")
            }
        }
    }
}
