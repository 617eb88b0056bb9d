import XCTest
import Foundation
import Core
@testable import Auth

/// Admin accounts in memory, counting reads so tests can see when the stored hash was consulted.
final class MemoryAdminAccountStore: AdminAccountStore, @unchecked Sendable {
    private let lock = NSLock()
    private var hashes: [String: String] = [:]
    private var reads = 0
    var failing = false

    var readCount: Int { lock.lock(); defer { lock.unlock() }; return reads }

    func passwordHash(name: String) throws -> String? {
        lock.lock()
        defer { lock.unlock() }
        reads += 1
        if failing { throw PasswordHashError.cryptFailed }
        return hashes[name]
    }

    func setPasswordHash(name: String, hash: String, createdAt: Int64) throws {
        lock.lock()
        defer { lock.unlock() }
        hashes[name] = hash
    }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 1_000.0
    var now: Double { lock.lock(); defer { lock.unlock() }; return value }
    func advance(_ seconds: Double) { lock.lock(); value += seconds; lock.unlock() }
}

final class ServerAdminTests: XCTestCase {
    private func makeAdmin(_ store: MemoryAdminAccountStore = MemoryAdminAccountStore(), clock: ManualClock = ManualClock(),
                           policy: FailedLoginPolicy = FailedLoginPolicy()) throws -> ServerAdmin {
        let admin = ServerAdmin(name: "admin", store: store, policy: policy, hashCost: 4, clock: { clock.now })
        XCTAssertNil(try admin.ensureAccount(configuredPassword: "right"))
        return admin
    }

    private func basic(_ name: String, _ password: String) -> String {
        "Basic " + Base64.encode(Array("\(name):\(password)".utf8))
    }

    func testFirstStartGeneratesAPasswordOnceAndAConfiguredOneReplacesIt() throws {
        let store = MemoryAdminAccountStore()
        let admin = ServerAdmin(name: "root", store: store, hashCost: 4)
        let generated = try XCTUnwrap(admin.ensureAccount(configuredPassword: nil))
        XCTAssertGreaterThanOrEqual(generated.count, 24)
        let hash = try XCTUnwrap(store.passwordHash(name: "root"))
        XCTAssertTrue(hash.hasPrefix("$2b$04$"), "only the bcrypt hash is stored")
        XCTAssertNil(try admin.ensureAccount(configuredPassword: nil), "a later start generates nothing")
        XCTAssertEqual(admin.verify(name: "root", password: generated, clientAddress: "127.0.0.1"), .ok)

        XCTAssertNil(try admin.ensureAccount(configuredPassword: "configured"))
        XCTAssertEqual(admin.verify(name: "root", password: "configured", clientAddress: "127.0.0.1"), .ok)
        XCTAssertEqual(admin.verify(name: "root", password: generated, clientAddress: "127.0.0.1"), .wrong,
                       "the remembered success of the old password is forgotten")
        let unchanged = try store.passwordHash(name: "root")
        XCTAssertNil(try admin.ensureAccount(configuredPassword: "configured"))
        XCTAssertEqual(try store.passwordHash(name: "root"), unchanged, "the same password is not re-hashed")
    }

    func testVerifiesNameAndPasswordAndTheBasicHeader() throws {
        let admin = try makeAdmin()
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "a"), .ok)
        XCTAssertEqual(admin.verify(name: "admin", password: "wrong", clientAddress: "a"), .wrong)
        XCTAssertEqual(admin.verify(name: "other", password: "right", clientAddress: "a"), .wrong)
        XCTAssertEqual(admin.verify(authorization: basic("admin", "right"), clientAddress: "a"), .ok)
        XCTAssertEqual(admin.verify(authorization: basic("admin", "wrong"), clientAddress: "a"), .wrong)
        XCTAssertEqual(admin.verify(authorization: nil, clientAddress: "a"), .wrong)
        XCTAssertEqual(admin.verify(authorization: "Bearer right", clientAddress: "a"), .wrong)
    }

    func testEleventhWrongPasswordIsRateLimitedWhileAnotherAddressStillGetsIn() throws {
        let clock = ManualClock()
        let admin = try makeAdmin(clock: clock)
        for _ in 0..<10 {
            XCTAssertEqual(admin.verify(name: "admin", password: "guess", clientAddress: "198.51.100.7"), .wrong)
            clock.advance(1)
        }
        XCTAssertEqual(admin.verify(name: "admin", password: "guess", clientAddress: "198.51.100.7"),
                       .rateLimited(retryAfterSeconds: 50))
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "198.51.100.7"),
                       .rateLimited(retryAfterSeconds: 50), "a refused address is not checked at all")
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "198.51.100.8"), .ok)
        clock.advance(50)
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "198.51.100.7"), .ok)
    }

    func testMissingOrForeignHeadersAreNotCountedAsFailures() throws {
        let admin = try makeAdmin(policy: FailedLoginPolicy(maxFailures: 1, windowSeconds: 60))
        for _ in 0..<5 {
            XCTAssertEqual(admin.verify(authorization: nil, clientAddress: "a"), .wrong)
            XCTAssertEqual(admin.verify(authorization: "Bearer token", clientAddress: "a"), .wrong)
        }
        XCTAssertEqual(admin.verify(authorization: basic("admin", "right"), clientAddress: "a"), .ok)
    }

    func testARememberedSuccessSkipsBcryptButNotTheLimit() throws {
        let store = MemoryAdminAccountStore()
        let clock = ManualClock()
        let admin = try makeAdmin(store, clock: clock, policy: FailedLoginPolicy(maxFailures: 2, windowSeconds: 60))
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "a"), .ok)
        let reads = store.readCount
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "b"), .ok)
        XCTAssertEqual(store.readCount, reads, "remembered: the hash was not read again")
        // Wrong guesses are never answered from memory, and they still count.
        XCTAssertEqual(admin.verify(name: "admin", password: "right!", clientAddress: "a"), .wrong)
        XCTAssertEqual(admin.verify(name: "admin", password: "righ", clientAddress: "a"), .wrong)
        XCTAssertEqual(store.readCount, reads + 2)
        // The address used up its failures: even the remembered right password is refused from it.
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "a"), .rateLimited(retryAfterSeconds: 60))
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "b"), .ok)
        // The memory lasts a minute; then bcrypt runs again.
        clock.advance(61)
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "b"), .ok)
        XCTAssertEqual(store.readCount, reads + 3)
    }

    func testAStorageFailureRefusesWithoutCountingAgainstTheClient() throws {
        let store = MemoryAdminAccountStore()
        let admin = try makeAdmin(store, policy: FailedLoginPolicy(maxFailures: 1, windowSeconds: 60))
        store.failing = true
        for _ in 0..<3 { XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "a"), .wrong) }
        store.failing = false
        XCTAssertEqual(admin.verify(name: "admin", password: "right", clientAddress: "a"), .ok)
    }

    func testConcurrentGuessesFromOneAddressGetNoMoreThanTheLimit() throws {
        let admin = try makeAdmin(policy: FailedLoginPolicy(maxFailures: 5, windowSeconds: 3600))
        let wrong = Counter()
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            if admin.verify(name: "admin", password: "guess-\(i)", clientAddress: "a") == .wrong { wrong.increment() }
        }
        XCTAssertEqual(wrong.value, 5, "every guess past the fifth was refused unchecked")
    }

    /// A client's connections all sending the right password when the remembered success has expired (every
    /// minute under load) must all get in: the check is made once and the others take its verdict, instead
    /// of each reserving an attempt and the eleventh being refused as if it were guessing.
    func testTheSameRightPasswordSentAtOnceOnManyConnectionsIsCheckedOnceAndAdmitsThemAll() throws {
        let store = GatedAdminAccountStore()
        let clock = ManualClock()
        let admin = ServerAdmin(name: "admin", store: store, hashCost: 4, clock: { clock.now })
        XCTAssertNil(try admin.ensureAccount(configuredPassword: "right"))
        let reads = store.readCount
        store.close()
        let verdicts = Verdicts()
        let group = DispatchGroup()
        // Threads of their own: the global queue would start only a few at once on a small machine.
        for _ in 0..<40 {
            group.enter()
            Thread {
                verdicts.append(admin.verify(name: "admin", password: "right", clientAddress: "127.0.0.1"))
                group.leave()
            }.start()
        }
        // One check now holds the stored hash's read; give the other calls time to arrive while it does.
        XCTAssertTrue(store.waitForHeldReads(1, seconds: 10))
        Thread.sleep(forTimeInterval: 0.2)
        store.open()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(verdicts.all.count, 40)
        XCTAssertEqual(verdicts.all.filter { $0 == .ok }.count, 40, "refused: \(verdicts.all.filter { $0 != .ok })")
        XCTAssertEqual(store.readCount, reads + 1, "one bcrypt check for all of them")
        // The same wrong password sent at once is one failed attempt, and every caller hears it was wrong.
        store.close()
        for _ in 0..<20 {
            group.enter()
            Thread {
                verdicts.append(admin.verify(name: "admin", password: "guess", clientAddress: "127.0.0.1"))
                group.leave()
            }.start()
        }
        XCTAssertTrue(store.waitForHeldReads(1, seconds: 10))
        Thread.sleep(forTimeInterval: 0.2)
        store.open()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(verdicts.all.dropFirst(40).filter { $0 == .wrong }.count, 20)
        for i in 0..<9 {
            XCTAssertEqual(admin.verify(name: "admin", password: "guess-\(i)", clientAddress: "127.0.0.1"), .wrong)
        }
        XCTAssertEqual(admin.verify(name: "admin", password: "guess-9", clientAddress: "127.0.0.1"),
                       .rateLimited(retryAfterSeconds: 60), "the shared wrong check counted once, the limit still holds")
    }

    /// Another account's check (Couch's `_users`) named by a key is shared the same way: one check for the
    /// calls made at once with the same key from one address, and every one of them admitted.
    func testAnotherAccountsChecksWithTheSameKeyAreSharedToo() throws {
        let admin = try makeAdmin()
        let gate = Gate()
        let checks = Counter()
        let verdicts = Verdicts()
        let group = DispatchGroup()
        let key = Array("user key".utf8)
        for _ in 0..<40 {
            group.enter()
            Thread {
                verdicts.append(admin.limitedCheck(clientAddress: "127.0.0.1", credentials: key) {
                    checks.increment()
                    gate.pass()
                    return true
                })
                group.leave()
            }.start()
        }
        // Give the calls time to arrive while the first check is held.
        let deadline = Date().addingTimeInterval(10)
        while checks.value == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.2)
        gate.open()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(verdicts.all.filter { $0 == .ok }.count, 40, "refused: \(verdicts.all.filter { $0 != .ok })")
        XCTAssertLessThan(checks.value, 40, "calls that arrived during the check shared it")
    }

    func testSessionSaltChangesWithThePassword() throws {
        let store = MemoryAdminAccountStore()
        let admin = ServerAdmin(name: "admin", store: store, hashCost: 4)
        XCTAssertNil(try admin.sessionSalt())
        _ = try admin.ensureAccount(configuredPassword: "one")
        let first = try XCTUnwrap(admin.sessionSalt())
        XCTAssertEqual(first.count, 22)
        XCTAssertTrue(try XCTUnwrap(store.passwordHash(name: "admin")).hasPrefix("$2b$04$" + first))
        _ = try admin.ensureAccount(configuredPassword: "two")
        XCTAssertNotEqual(try admin.sessionSalt(), first)
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func increment() { lock.lock(); count += 1; lock.unlock() }
}

/// Verdicts gathered from many threads.
final class Verdicts: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [AdminVerdict] = []
    var all: [AdminVerdict] { lock.lock(); defer { lock.unlock() }; return values }
    func append(_ verdict: AdminVerdict) { lock.lock(); values.append(verdict); lock.unlock() }
}

/// Admin accounts in memory whose hash reads wait while the gate is closed, so that a test can hold a
/// password check under way while other calls arrive.
final class GatedAdminAccountStore: AdminAccountStore, @unchecked Sendable {
    private let inner = MemoryAdminAccountStore()
    private let condition = NSCondition()
    private var closed = false
    private var held = 0

    var readCount: Int { inner.readCount }

    func close() { condition.lock(); closed = true; condition.unlock() }

    func open() { condition.lock(); closed = false; condition.broadcast(); condition.unlock() }

    /// Waits until at least `count` reads are held at the gate; false after `seconds`.
    func waitForHeldReads(_ count: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while held < count {
            if !condition.wait(until: deadline) { return held >= count }
        }
        return true
    }

    func passwordHash(name: String) throws -> String? {
        condition.lock()
        held += 1
        condition.broadcast()
        while closed { condition.wait() }
        held -= 1
        condition.unlock()
        return try inner.passwordHash(name: name)
    }

    func setPasswordHash(name: String, hash: String, createdAt: Int64) throws {
        try inner.setPasswordHash(name: name, hash: hash, createdAt: createdAt)
    }
}

/// A gate threads wait at until it is opened.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() { condition.lock(); isOpen = true; condition.broadcast(); condition.unlock() }

    func pass() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }
}
