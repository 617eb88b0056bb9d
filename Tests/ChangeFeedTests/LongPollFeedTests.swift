import XCTest
import Storage
@testable import HTTP
@testable import ChangeFeed

/// The one-shot shape: wake-ups by topic and sequence, the race between evaluation and commit, time-out,
/// shutdown, a client that leaves, caps and batching.
final class LongPollFeedTests: XCTestCase {
    private let bus = ChangeBus()
    private let store = FakeStore()
    private let token = StreamToken(connection: 1, sequence: 1)

    /// Answers a waiter when the store has passed one of its cursors, with "topic=sequence"; `during` runs
    /// after the evaluation read the store.
    private func makeFeed(maxPerKey: Int = 100, during: (@Sendable (Int) -> Void)? = nil) -> LongPollFeed<String> {
        let store = self.store
        return LongPollFeed<String>(bus: bus, label: "test.feed", maxPerKey: maxPerKey) { waiters in
            store.noteCall(batch: waiters.count)
            var answers: [Int: HTTPResponse] = [:]
            for waiter in waiters {
                for cursor in waiter.cursors where store.sequence(cursor.topic) > cursor.after {
                    answers[waiter.id] = .text(.ok, "\(cursor.topic)=\(store.sequence(cursor.topic))")
                }
            }
            // After the state was read, as a commit racing with the read transaction.
            during?(store.callCount)
            return answers
        }
    }

    private func park(_ feed: LongPollFeed<String>, key: String = "k", _ cursors: [FeedCursor],
                      sink: RecordingSink) -> ParkedResponse? {
        guard let reply = feed.wait(key: key, cursors: cursors, payload: "p", timeout: .seconds(30),
                                    onTimeout: { .text(.ok, "timeout") }),
              let parked = reply.parked else { return nil }
        parked.attach(sink: sink, token: token)
        return parked
    }

    func testAnswersAtOnceWhenTheStoreIsAlreadyPastTheCursor() {
        store.set("a", 4)
        let feed = makeFeed()
        let reply = feed.wait(key: "k", cursors: [FeedCursor(topic: "a", after: 3)], payload: "p",
                              timeout: .seconds(30), onTimeout: { .text(.ok, "timeout") })
        XCTAssertEqual(reply?.immediate?.bodyText, "a=4")
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0, "an answered waiter releases its topic")
    }

    func testWakesOnALaterSequenceButNotOnAnOlderOne() {
        store.set("a", 5)
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let parked = park(feed, [FeedCursor(topic: "a", after: 5)], sink: sink) else { return XCTFail("not parked") }
        XCTAssertEqual(feed.count, 1)
        XCTAssertEqual(bus.subscriberCount("a"), 1)
        let callsAfterParking = store.callCount
        bus.publish([ChangeEvent(topic: "a", sequence: 5), ChangeEvent(topic: "a", sequence: 2),
                     ChangeEvent(topic: "b", sequence: 9)])
        feed.waitForEvaluations()
        XCTAssertEqual(store.callCount, callsAfterParking, "events at or before the cursor do not wake")
        XCTAssertFalse(parked.isCompleted)
        store.commit("a", 6, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.bodies, ["a=6"])
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0)
    }

    func testAnyCursorWakesOnEveryEventOfItsTopic() {
        let feed = makeFeed()
        let sink = RecordingSink()
        guard park(feed, [.any("list")], sink: sink) != nil else { return XCTFail("not parked") }
        store.commit("list", 0, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.bodies, ["list=0"])
    }

    func testACommitDuringTheFirstEvaluationIsNotMissed() {
        let bus = self.bus, store = self.store
        // The first evaluation reads the old state; a commit lands before it returns.
        let feed = makeFeed { call in if call == 1 { store.commit("a", 2, on: bus) } }
        let reply = feed.wait(key: "k", cursors: [FeedCursor(topic: "a", after: 1)], payload: "p",
                              timeout: .seconds(30), onTimeout: { .text(.ok, "timeout") })
        XCTAssertEqual(reply?.immediate?.bodyText, "a=2", "the handler evaluates again and answers")
        XCTAssertEqual(store.callCount, 2)
    }

    func testACommitDuringAWokenEvaluationIsNotMissed() {
        let bus = self.bus, store = self.store
        // The second evaluation (woken by sequence 2 on "b") misses a commit on "a" that lands meanwhile.
        let feed = LongPollFeed<String>(bus: bus, label: "test.feed", maxPerKey: 10) { waiters in
            store.noteCall(batch: waiters.count)
            let seen = store.sequence("a")
            if store.callCount == 2 { store.commit("a", 7, on: bus) }
            return seen >= 7 ? Dictionary(uniqueKeysWithValues: waiters.map { ($0.id, HTTPResponse.text(.ok, "a=\(seen)")) }) : [:]
        }
        let sink = RecordingSink()
        guard park(feed, [FeedCursor(topic: "a", after: 1), FeedCursor(topic: "b", after: 1)], sink: sink) != nil else {
            return XCTFail("not parked")
        }
        store.commit("b", 2, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.bodies, ["a=7"])
        XCTAssertEqual(store.callCount, 3)
    }

    func testTimeoutAnswersWithTheTimeoutResponseAndReleases() {
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let parked = park(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not parked") }
        parked.fireTimeout()
        XCTAssertEqual(sink.bodies, ["timeout"])
        XCTAssertEqual(feed.count, 0)
        store.commit("a", 1, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.bodies, ["timeout"], "a released waiter is not answered twice")
    }

    func testShutdownAnswersAtOnceAndReleases() {
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let parked = park(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not parked") }
        parked.serverShutdown()
        XCTAssertEqual(sink.bodies, ["timeout"])
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0)
    }

    func testAClientThatLeftIsReleased() {
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let parked = park(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not parked") }
        parked.clientGone()
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(feed.count(forKey: "k"), 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0)
        store.commit("a", 1, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.bodies, [])
    }

    func testPerKeyCap() {
        let feed = makeFeed(maxPerKey: 2)
        let sink = RecordingSink()
        let first = park(feed, key: "alice", [FeedCursor(topic: "a", after: 0)], sink: sink)
        XCTAssertNotNil(first)
        XCTAssertNotNil(park(feed, key: "alice", [FeedCursor(topic: "a", after: 0)], sink: sink))
        XCTAssertNil(feed.wait(key: "alice", cursors: [], payload: "p", timeout: .seconds(1), onTimeout: { .text(.ok, "") }))
        XCTAssertNotNil(park(feed, key: "bob", [FeedCursor(topic: "a", after: 0)], sink: sink))
        first?.clientGone()
        XCTAssertNotNil(park(feed, key: "alice", [FeedCursor(topic: "a", after: 0)], sink: sink))
        XCTAssertEqual(feed.count, 3)
        XCTAssertEqual(feed.count(forKey: "alice"), 2)
    }

    func testOneEventWakesManyWaitersInBatches() {
        let feed = makeFeed(maxPerKey: 10_000)
        let sink = RecordingSink()
        for _ in 0..<2500 { _ = park(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) }
        XCTAssertEqual(bus.subscriberCount("a"), 1, "one subscription per topic, not per waiter")
        let before = store.batchSizes.count
        store.commit("a", 1, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.bodies.count, 2500)
        XCTAssertEqual(Array(store.batchSizes[before...]).sorted(), [452, 1024, 1024])
        XCTAssertEqual(feed.count, 0)
    }

    func testTheCountIsReported() {
        let counts = LockedBox<[Int]>([])
        let feed = LongPollFeed<String>(bus: bus, label: "test.feed", maxPerKey: 10, evaluator: { _ in [:] },
                                        onCountChange: { n in counts.update { $0.append(n) } })
        let sink = RecordingSink()
        let parked = park(feed, [FeedCursor(topic: "a", after: 0)], sink: sink)
        _ = park(feed, [FeedCursor(topic: "b", after: 0)], sink: sink)
        parked?.clientGone()
        XCTAssertEqual(counts.get(), [1, 2, 1])
    }
}
