import Core
import Foundation
import XCTest
@testable import Storage

final class ChangeEventTests: XCTestCase {
    private struct Boom: Error {}

    func testEventsArriveOnlyAfterCommitAndNotForFailedJobs() throws {
        let (storage, dir) = try makeStorage(self)
        try storage.writeAndWait { try $0.db.execute("CREATE TABLE t (n)") }
        let received = Collector<ChangeEvent>()
        let committedCount = Collector<Int64>()
        let subscription = storage.changes.subscribe("t") { event in
            // A separate connection sees the row when the event arrives: the commit came first.
            if let db = try? Database(path: dir + "/test.sqlite3", readOnly: true),
               let count = try? db.queryOne("SELECT count(*) FROM t")?[0].int64 {
                committedCount.append(count)
            }
            received.append(event)
        }
        defer { subscription.cancel() }

        try storage.writeAndWait { ctx in
            try ctx.db.run("INSERT INTO t VALUES (1)")
            ctx.publish(ChangeEvent(topic: "t", sequence: 1, detail: "one"))
        }
        XCTAssertThrowsError(try storage.writeAndWait { ctx in
            try ctx.db.run("INSERT INTO t VALUES (2)")
            ctx.publish(ChangeEvent(topic: "t", sequence: 2, detail: "two"))
            throw Boom()
        })
        try storage.writeAndWait { ctx in
            ctx.publish(ChangeEvent(topic: "other", sequence: 9))
        }
        storage.close()   // waits for completions and publication
        XCTAssertEqual(received.all, [ChangeEvent(topic: "t", sequence: 1, detail: "one")])
        XCTAssertEqual(committedCount.all, [1])
    }

    func testBusDeliversToTopicSubscribersInOrder() {
        let bus = ChangeBus()
        let a = Collector<Int64>()
        let b = Collector<Int64>()
        let subA = bus.subscribe("x") { a.append($0.sequence) }
        let subB = bus.subscribe("y") { b.append($0.sequence) }
        bus.publish([ChangeEvent(topic: "x", sequence: 1), ChangeEvent(topic: "y", sequence: 2),
                     ChangeEvent(topic: "x", sequence: 3)])
        XCTAssertEqual(a.all, [1, 3])
        XCTAssertEqual(b.all, [2])
        subA.cancel()
        subB.cancel()
    }

    func testCancelIsIdempotentAndStopsDelivery() {
        let bus = ChangeBus()
        let got = Collector<Int64>()
        let subscription = bus.subscribe("x") { got.append($0.sequence) }
        XCTAssertEqual(bus.subscriberCount("x"), 1)
        subscription.cancel()
        subscription.cancel()
        XCTAssertEqual(bus.subscriberCount("x"), 0)
        bus.publish([ChangeEvent(topic: "x", sequence: 1)])
        XCTAssertEqual(got.all, [])
    }

    func testReleasingSubscriptionCancelsIt() {
        let bus = ChangeBus()
        let got = Collector<Int64>()
        do {
            let subscription = bus.subscribe("x") { got.append($0.sequence) }
            XCTAssertEqual(bus.subscriberCount("x"), 1)
            _ = subscription
        }
        XCTAssertEqual(bus.subscriberCount("x"), 0)
    }

    func testHandlerMayCancelItselfDuringDelivery() {
        let bus = ChangeBus()
        let box = Locked<ChangeSubscription?>(nil)
        let got = Collector<Int64>()
        let subscription = bus.subscribe("x") { event in
            got.append(event.sequence)
            box.withLock { $0?.cancel() }
        }
        box.withLock { $0 = subscription }
        bus.publish([ChangeEvent(topic: "x", sequence: 1)])
        bus.publish([ChangeEvent(topic: "x", sequence: 2)])
        XCTAssertEqual(got.all, [1])
    }
}
