import XCTest
import Foundation
import HTTP
import Storage
@testable import DatastoreAPI

/// The waiter registry: per-user cap, routing of change notices to the waiters they concern, completion.
final class AwaitHubTests: XCTestCase {
    /// An evaluator that answers the waiters whose ids are in `ready`, and counts its calls.
    final class FakeEvaluator: @unchecked Sendable {
        private let lock = NSLock()
        private var readyIDs: Set<Int> = []
        private(set) var evaluated: [Int] = []
        func makeReady(_ id: Int) { lock.lock(); readyIDs.insert(id); lock.unlock() }
        var calls: [Int] { lock.lock(); defer { lock.unlock() }; return evaluated }
        func evaluate(_ waiters: [AwaitWaiter]) -> [Int: HTTPResponse] {
            lock.lock(); defer { lock.unlock() }
            evaluated += waiters.map(\.id)
            var answers: [Int: HTTPResponse] = [:]
            for waiter in waiters where readyIDs.contains(waiter.id) { answers[waiter.id] = WireResponse.empty }
            return answers
        }
    }

    private let alice = DatastoreUser(uid: 1, name: "alice")
    private let bob = DatastoreUser(uid: 2, name: "bob")

    private func parked() -> ParkedResponse { ParkedResponse(timeout: .seconds(30)) { WireResponse.empty } }

    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    func testPerUserCap() {
        let fake = FakeEvaluator()
        let hub = AwaitHub(maxPerUser: 2, evaluator: { fake.evaluate($0) })
        let watch = AwaitWatch(listToken: nil, cursors: [])
        let first = hub.register(user: alice, watch: watch, parked: parked())
        XCTAssertNotNil(first)
        XCTAssertNotNil(hub.register(user: alice, watch: watch, parked: parked()))
        XCTAssertNil(hub.register(user: alice, watch: watch, parked: parked()))
        XCTAssertNotNil(hub.register(user: bob, watch: watch, parked: parked()))
        if let first { hub.remove(first); hub.remove(first) }
        XCTAssertNotNil(hub.register(user: alice, watch: watch, parked: parked()))
        XCTAssertEqual(hub.count, 3)
    }

    func testNoticesReachOnlyConcernedWaiters() {
        let fake = FakeEvaluator()
        let bus = ChangeBus()
        let hub = AwaitHub(maxPerUser: 10, evaluator: { fake.evaluate($0) })
        hub.attach(to: bus)
        let onH = parked(), onOther = parked(), listing = parked()
        guard let w1 = hub.register(user: alice, watch: AwaitWatch(listToken: nil, cursors: [("H", 0)]), parked: onH),
              let w2 = hub.register(user: alice, watch: AwaitWatch(listToken: nil, cursors: [("X", 0)]), parked: onOther),
              let w3 = hub.register(user: bob, watch: AwaitWatch(listToken: "t", cursors: []), parked: listing) else {
            return XCTFail("registration refused")
        }
        // The handler's first evaluation finds nothing: the waiters park.
        for waiter in [w1, w2, w3] { XCTAssertNil(hub.evaluate(waiter)) }
        fake.makeReady(w1.id)
        fake.makeReady(w3.id)
        bus.publish([ChangeNotice.event(handle: "H", uids: [2])])
        XCTAssertTrue(eventually { onH.isCompleted && listing.isCompleted })
        XCTAssertFalse(onOther.isCompleted)
        XCTAssertFalse(fake.calls.filter { $0 == w2.id }.count > 1, "the unrelated waiter was re-evaluated")
        XCTAssertEqual(hub.count, 1)
    }

    func testFirstEvaluationAnswersAndForgets() {
        let fake = FakeEvaluator()
        let hub = AwaitHub(maxPerUser: 10, evaluator: { fake.evaluate($0) })
        guard let waiter = hub.register(user: alice, watch: AwaitWatch(listToken: ".", cursors: []), parked: parked()) else {
            return XCTFail("registration refused")
        }
        fake.makeReady(waiter.id)
        XCTAssertNotNil(hub.evaluate(waiter))
        XCTAssertEqual(hub.count, 0)
    }
}
