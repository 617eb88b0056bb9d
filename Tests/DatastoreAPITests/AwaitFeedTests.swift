import XCTest
import Foundation
import Core
import HTTP
import Storage
import ChangeFeed
@testable import DatastoreAPI

/// How `await` sits on the change feed: the topics commits publish, the cursors a watch becomes, and the
/// routing of a commit to the waiters it concerns (handle cursors by revision, list watchers by user).
final class AwaitFeedTests: XCTestCase {
    private let alice = DatastoreUser(uid: 1, name: "alice")
    private let bob = DatastoreUser(uid: 2, name: "bob")

    private func events(handle: String, rev: Int64, uids: [Int64]) -> [String] {
        var out: [String] = []
        DatastoreTopics.events(handle: handle, rev: rev, uids: uids) { out.append("\($0.topic)@\($0.sequence)") }
        return out
    }

    func testAWriteNamesItsHandleOnceAndEachUserOnce() {
        XCTAssertEqual(events(handle: "abc_-DEF", rev: 4, uids: [1, 2, 1]), ["ds.h.abc_-DEF@4", "ds.u.1@4", "ds.u.2@4"])
        XCTAssertEqual(events(handle: "H", rev: 0, uids: []), ["ds.h.H@0"])
        XCTAssertEqual(events(handle: "H", rev: 1, uids: [-5, 7, -5, 7, 0]), ["ds.h.H@1", "ds.u.-5@1", "ds.u.7@1", "ds.u.0@1"])
        // Long lists (many grantees) take the set; the first occurrence keeps its place either way.
        let many = (0..<40).map { Int64($0 % 25) } + [Int64.max, Int64.min]
        let expected = ["ds.h.H@2"] + ((0..<25).map { Int64($0) } + [Int64.max, Int64.min]).map { "ds.u.\($0)@2" }
        XCTAssertEqual(events(handle: "H", rev: 2, uids: many), expected)
    }

    func testAWatchBecomesHandleCursorsAndTheUsersList() {
        let watch = AwaitWatch(listToken: "t", cursors: [("A", 3), ("B", 0)])
        XCTAssertEqual(DatastoreTopics.cursors(for: watch, uid: 9),
                       [FeedCursor(topic: "ds.h.A", after: 3), FeedCursor(topic: "ds.h.B", after: 0), .any("ds.u.9")])
        XCTAssertEqual(DatastoreTopics.cursors(for: AwaitWatch(listToken: nil, cursors: [("A", 1)]), uid: 9),
                       [FeedCursor(topic: "ds.h.A", after: 1)])
    }

    func testTheStoresCommitsPublishTheseTopics() throws {
        let f = try StoreFixture()
        let alice = try f.user("alice")
        let seen = LockedEvents()
        let userTopic = DatastoreTopics.user(alice.uid)
        let listSubscription = f.storage.changes.subscribe(userTopic) { seen.add($0) }
        let created = try f.wait { f.store.getOrCreate(dsid: "default", for: alice, completion: $0) }
        // Events are published after the completion: once the list event arrived, the creation's handle
        // event (published before it, to no one) is past.
        XCTAssertTrue(eventually { seen.all.count == 1 })
        let handleTopic = DatastoreTopics.handle(created.handle)
        let handleSubscription = f.storage.changes.subscribe(handleTopic) { seen.add($0) }
        let json = try JSONParser.parse("[[\"I\",\"t\",\"r1\",{\"a\":{\"I\":\"1\"}}]]")
        let request = PutDeltaRequest(handle: created.handle, rev: 0, nonce: "n", delta: try ChangeParser.parse(json),
                                      changesJSON: JSONWriter.serialize(json))
        _ = try f.wait { f.store.putDelta(request, for: alice, completion: $0) }
        _ = try f.wait { f.store.delete(handle: created.handle, for: alice, completion: $0) }
        XCTAssertTrue(eventually { seen.all.count == 5 })
        XCTAssertEqual(seen.all, ["\(userTopic)@0", "\(handleTopic)@1", "\(userTopic)@1",
                                  "\(handleTopic)@\(Int64.max)", "\(userTopic)@\(Int64.max)"])
        listSubscription.cancel()
        handleSubscription.cancel()
    }

    /// An evaluator that answers the waiters whose ids are in `ready`, and records whom it evaluated.
    final class FakeEvaluator: @unchecked Sendable {
        private let lock = NSLock()
        private var readyIDs: Set<Int> = []
        private var evaluated: [Int] = []
        func makeReady(_ id: Int) { lock.lock(); readyIDs.insert(id); lock.unlock() }
        var calls: [Int] { lock.lock(); defer { lock.unlock() }; return evaluated }
        func evaluate(_ waiters: [FeedWaiter<AwaitRequest>]) -> [Int: HTTPResponse] {
            lock.lock(); defer { lock.unlock() }
            evaluated += waiters.map(\.id)
            var answers: [Int: HTTPResponse] = [:]
            for waiter in waiters where readyIDs.contains(waiter.id) { answers[waiter.id] = WireResponse.empty }
            return answers
        }
    }

    private func park(_ feed: LongPollFeed<AwaitRequest>, _ user: DatastoreUser, _ watch: AwaitWatch) -> ParkedResponse? {
        let reply = feed.wait(key: String(user.uid), cursors: DatastoreTopics.cursors(for: watch, uid: user.uid),
                              payload: AwaitRequest(user: user, watch: watch), timeout: .seconds(30),
                              onTimeout: { WireResponse.empty })
        if case .parked(let parked)? = reply { return parked }
        return nil
    }

    func testACommitReachesOnlyTheWaitersItConcerns() {
        let fake = FakeEvaluator()
        let bus = ChangeBus()
        let feed = LongPollFeed<AwaitRequest>(bus: bus, label: "test.await", maxPerKey: 10) { fake.evaluate($0) }
        // Ids are given in registration order from 1.
        guard let onH = park(feed, alice, AwaitWatch(listToken: nil, cursors: [("H", 0)])),
              let onOther = park(feed, alice, AwaitWatch(listToken: nil, cursors: [("X", 0)])),
              let listing = park(feed, bob, AwaitWatch(listToken: "t", cursors: [])),
              let ahead = park(feed, alice, AwaitWatch(listToken: nil, cursors: [("H", 5)])) else {
            return XCTFail("an await was answered or refused")
        }
        for id in [1, 3, 4] { fake.makeReady(id) }
        var events: [ChangeEvent] = []
        DatastoreTopics.events(handle: "H", rev: 1, uids: [2]) { events.append($0) }
        bus.publish(events)
        XCTAssertTrue(eventually { onH.isCompleted && listing.isCompleted })
        XCTAssertFalse(onOther.isCompleted)
        XCTAssertFalse(ahead.isCompleted, "a cursor at or past the new revision is not woken")
        XCTAssertEqual(fake.calls.filter { $0 == 2 || $0 == 4 }, [2, 4], "only their first evaluations")
        XCTAssertEqual(feed.count, 2)
    }
}

/// Events received on another thread, as "topic@sequence".
final class LockedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func add(_ event: ChangeEvent) { lock.lock(); events.append("\(event.topic)@\(event.sequence)"); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return events }
}

private func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
