import Dispatch
import Foundation
import Glibc
import XCTest
@testable import HTTP

/// Large bodies share `ServerConfiguration.decodingBudget`: while one holds it, another waits for
/// `decodingWait` and then gets 503 in its group's error format, or is served as soon as room appears;
/// small bodies never wait. A handler that blocks until the test lets it go holds the budget, so every
/// outcome below follows from the order of events, not from timing.
final class ServerDecodingBudgetTests: XCTestCase {
    /// A handler gate: `enter` blocks a handler until `open`.
    final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocking = LockedBox(true)
    }

    private func makeServer(gate: Gate, budget: Int, wait: Duration) throws -> TestServer {
        try TestServer(configure: {
            $0.decodingBudget = DecodingBudget(capacity: budget)
            $0.decodingWait = wait
        }) { router in
            let api = router.group("/api", errorRenderer: { error, _ in
                let code = (error as? HTTPError)?.status ?? .internalServerError
                return .json(code, #"{"api_error":"\#(code.code)"}"#)
            })
            api.post("/hold", maxBodyBytes: 8 << 20) { request in
                if gate.blocking.get() {
                    gate.entered.signal()
                    gate.release.wait()
                }
                return .response(.text(.ok, "held \(request.body.count)"))
            }
            api.post("/echo", maxBodyBytes: 8 << 20) { request in
                .response(.text(.ok, "got \(request.body.count)"))
            }
        }
    }

    private func post(_ client: RawClient, _ path: String, bytes: Int) throws {
        try client.send("POST \(path) HTTP/1.1\r\nHost: a\r\nContent-Length: \(bytes)\r\n\r\n")
        try client.send([UInt8](repeating: UInt8(ascii: "x"), count: bytes))
    }

    func testALargeBodyBeyondTheBudgetWaitsThenGets503InItsGroupsFormat() throws {
        let gate = Gate()
        let server = try makeServer(gate: gate, budget: 1 << 20, wait: .milliseconds(200))
        let holder = try server.client()
        try post(holder, "/api/hold", bytes: 1 << 20)
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 5), .success)

        let waiter = try server.client()
        try post(waiter, "/api/echo", bytes: 100_000)
        let refused = try waiter.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.text, #"{"api_error":"503"}"#)
        XCTAssertEqual(refused.header("Retry-After"), "1")
        // The body was read whole, so the connection carries on; a small body never waits.
        XCTAssertEqual(try waiter.request("POST", "/api/echo", body: "small").text, "got 5")

        gate.blocking.set(false)
        gate.release.signal()
        XCTAssertEqual(try holder.readResponse().text, "held 1048576")
        // With the budget free again the same large body is served.
        try post(waiter, "/api/echo", bytes: 100_000)
        XCTAssertEqual(try waiter.readResponse().text, "got 100000")
        XCTAssertEqual(server.server.decodingBytesInUse, 0)
    }

    func testAQueuedBodyIsServedWhenTheBudgetFrees() throws {
        let gate = Gate()
        let server = try makeServer(gate: gate, budget: 1 << 20, wait: .seconds(30))
        let holder = try server.client()
        try post(holder, "/api/hold", bytes: 600_000)
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 5), .success)
        // Each body may take more than the whole 1 MiB budget: the second waits in the queue.
        let waiter = try server.client(timeoutSeconds: 20)
        try post(waiter, "/api/echo", bytes: 600_000)
        XCTAssertTrue(eventually { server.server.queuedForDecoding == 1 })
        // Meanwhile small bodies and bodiless requests are served at once.
        let other = try server.client()
        XCTAssertEqual(try other.request("POST", "/api/echo", body: String(repeating: "s", count: 1000)).text, "got 1000")

        gate.blocking.set(false)
        gate.release.signal()
        XCTAssertEqual(try holder.readResponse().text, "held 600000")
        XCTAssertEqual(try waiter.readResponse().text, "got 600000")
        XCTAssertTrue(eventually { server.server.decodingBytesInUse == 0 })
    }

    func testABodyLargerThanTheWholeBudgetIsServedAlone() throws {
        let gate = Gate()
        gate.blocking.set(false)
        let server = try makeServer(gate: gate, budget: 1 << 20, wait: .seconds(5))
        let client = try server.client()
        try post(client, "/api/hold", bytes: 3 << 20)
        XCTAssertEqual(try client.readResponse().text, "held 3145728")
    }

    func testAfterBurstRunsWhenTheLastLargeBodyIsDoneButNotForSmallOnes() throws {
        let runs = LockedBox(0)
        let server = try TestServer(configure: { $0.afterBurst = { runs.update { $0 += 1 } } }) { router in
            router.group("").post("/echo", maxBodyBytes: 8 << 20) { request in .response(.text(.ok, "got \(request.body.count)")) }
        }
        let client = try server.client()
        // Bodies under `DecodingBudget.minimumCharged` are no burst: nothing runs, also a while after them.
        for _ in 0..<3 {
            XCTAssertEqual(try client.request("POST", "/echo", body: String(repeating: "s", count: 1000)).text, "got 1000")
        }
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(runs.get(), 0)
        // A large body is: the action runs a second after it is done. (A second trim another server of this
        // process scheduled just before takes this burst's turn, with its own action; the next body gets one.)
        for _ in 0..<5 where runs.get() == 0 {
            try post(client, "/echo", bytes: 200_000)
            XCTAssertEqual(try client.readResponse().text, "got 200000")
            _ = eventually(3) { runs.get() > 0 }
        }
        XCTAssertGreaterThanOrEqual(runs.get(), 1)
    }

    /// Memory a burst frees after its second trim (the writer's late frees) is trimmed too: the heap is trimmed
    /// again 2, 4 and 8 s after the burst.
    func testABurstIsFollowedByLateTrims() {
        let before = HeapTrim.trims.load(ordering: .relaxed)
        HeapTrim.trimAfterBurst()
        // The trim at once, the second a second later, the first late one a second after that.
        XCTAssertTrue(eventually(6) { HeapTrim.trims.load(ordering: .relaxed) - before >= 3 })
        XCTAssertEqual(HeapTrim.lateTrimDelays, [1, 3, 7])
    }

    func testChargesAndReleases() {
        // A body may take itself plus 72 bytes for each value it could hold as JSON (one per two bytes, at most
        // the value limit, a million by default).
        let large = DecodingBudget(capacity: 256 << 20)
        XCTAssertEqual(large.charge(forBodyBytes: 0), 0)
        XCTAssertEqual(large.charge(forBodyBytes: DecodingBudget.minimumCharged - 1), 0)
        XCTAssertEqual(DecodingBudget.bytesPerValueWhileParsing, 72)
        XCTAssertEqual(large.charge(forBodyBytes: DecodingBudget.minimumCharged), 65_536 + 32_769 * 72)
        XCTAssertEqual(large.charge(forBodyBytes: 2_000_000), 2_000_000 + 1_000_000 * 72)
        XCTAssertEqual(large.charge(forBodyBytes: 20 << 20), (20 << 20) + 1_000_000 * 72)
        XCTAssertEqual(large.charge(forBodyBytes: 1 << 30), 256 << 20)
        XCTAssertEqual(large.charge(forBodyBytes: .max), 256 << 20)
        let budget = DecodingBudget(capacity: 1 << 20)
        XCTAssertEqual(budget.charge(forBodyBytes: 5 << 20), 1 << 20)
        XCTAssertTrue(budget.tryAcquire(700_000))
        XCTAssertFalse(budget.tryAcquire(400_000))
        XCTAssertTrue(budget.tryAcquire(300_000))
        XCTAssertFalse(budget.release(300_000))
        XCTAssertTrue(budget.tryAcquire(348_576))
        XCTAssertEqual(budget.bytesInUse, 1 << 20)
        XCTAssertFalse(budget.release(348_576))
        XCTAssertTrue(budget.release(700_000))
        XCTAssertEqual(budget.bytesInUse, 0)
        // Never below the smallest charge, so that any charged body fits an idle budget.
        XCTAssertEqual(DecodingBudget(capacity: 1).capacity, DecodingBudget.minimumCharged)
    }
}
