import XCTest
import Storage
@testable import HTTP
@testable import ChangeFeed

/// The streaming shape, driven the way the server drives it: the response's producer receives a writer whose
/// output a recording sink collects.
final class StreamFeedTests: XCTestCase {
    private let bus = ChangeBus()
    private let store = FakeStore()

    /// Sends one line per topic the store moved past the cursor ("topic=sequence\n") and moves the cursor;
    /// ends the stream once a topic reaches 100; `during` runs after the evaluation read the store. Closing
    /// chunk: "end <reason> <cursors>\n".
    private func makeFeed(maxPerKey: Int = 10, during: (@Sendable (Int) -> Void)? = nil) -> StreamFeed<String> {
        let store = self.store
        return StreamFeed<String>(bus: bus, label: "test.stream", maxPerKey: maxPerKey, evaluator: { waiters in
            store.noteCall(batch: waiters.count)
            var chunks: [Int: FeedChunk] = [:]
            for waiter in waiters {
                var text = ""
                var moved: [FeedCursor] = []
                for cursor in waiter.cursors where store.sequence(cursor.topic) > cursor.after {
                    let now = store.sequence(cursor.topic)
                    text += "\(cursor.topic)=\(now)\n"
                    moved.append(FeedCursor(topic: cursor.topic, after: now))
                    if now >= 100 { chunks[waiter.id] = .last(Array(text.utf8)) }
                }
                if !text.isEmpty && chunks[waiter.id] == nil { chunks[waiter.id] = .more(Array(text.utf8), cursors: moved) }
            }
            // After the state was read, as a commit or a shutdown racing with the read transaction.
            during?(store.callCount)
            return chunks
        }, closing: { waiter, reason in
            Array("end \(reason) \(waiter.cursors.map { "\($0.topic)@\($0.after)" }.joined(separator: ","))\n".utf8)
        })
    }

    /// Opens a stream and starts it as the server would; returns its writer.
    private func start(_ feed: StreamFeed<String>, _ cursors: [FeedCursor], sink: RecordingSink,
                       options: FeedStreamOptions = FeedStreamOptions()) -> StreamWriter? {
        guard let response = feed.open(key: "k", cursors: cursors, payload: "p", options: options),
              case .stream(let producer) = response.body else { return nil }
        let writer = StreamWriter(sink: sink, token: StreamToken(connection: 1, sequence: 1))
        producer(writer)
        return writer
    }

    func testSendsTheBacklogThenEachLaterChangeAndMovesTheCursor() {
        store.set("a", 3)
        let feed = makeFeed()
        let sink = RecordingSink()
        guard start(feed, [FeedCursor(topic: "a", after: 1)], sink: sink) != nil else { return XCTFail("not opened") }
        XCTAssertEqual(sink.chunks, ["a=3\n"])
        let calls = store.callCount
        bus.publish([ChangeEvent(topic: "a", sequence: 3)])
        feed.waitForEvaluations()
        XCTAssertEqual(store.callCount, calls, "an event the stream already sent does not wake it")
        store.commit("a", 4, on: bus)
        feed.waitForEvaluations()
        store.commit("a", 6, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.chunks, ["a=3\n", "a=4\n", "a=6\n"])
        XCTAssertEqual(sink.endCount, 0)
        XCTAssertEqual(feed.count, 1)
    }

    func testOptionsBecomeTheLoopsTimers() {
        let feed = makeFeed()
        let sink = RecordingSink()
        let options = FeedStreamOptions(heartbeat: (.milliseconds(250), Array("\n".utf8)), timeout: .seconds(2))
        guard start(feed, [FeedCursor(topic: "a", after: 0)], sink: sink, options: options) != nil else {
            return XCTFail("not opened")
        }
        XCTAssertEqual(sink.timers, ["heartbeat 250000000 \n", "deadline 2000000000 true"])
    }

    func testALastChunkEndsTheStreamAndReleases() {
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let writer = start(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not opened") }
        store.commit("a", 100, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.chunks, ["a=100\n"])
        XCTAssertEqual(sink.endCount, 1)
        XCTAssertTrue(writer.isClosed)
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0)
    }

    func testTimeoutOfAnIdleStreamSendsTheClosingChunk() {
        store.set("a", 2)
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let writer = start(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not opened") }
        writer.serverEnds(.timeout)
        XCTAssertEqual(sink.chunks, ["a=2\n", "end timeout a@2\n"])
        XCTAssertEqual(sink.endCount, 1)
        XCTAssertEqual(feed.count, 0)
        writer.serverEnds(.shutdown)
        XCTAssertEqual(sink.endCount, 1, "ended once")
    }

    func testShutdownDuringAnEvaluationEndsAfterItsChunk() {
        let writerBox = LockedBox<StreamWriter?>(nil)
        // The shutdown arrives while the second evaluation (woken by a commit) is under way.
        let feed = makeFeed { call in if call == 2 { writerBox.get()?.serverEnds(.shutdown) } }
        let sink = RecordingSink()
        guard let writer = start(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not opened") }
        writerBox.set(writer)
        store.commit("a", 5, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.chunks, ["a=5\n", "end shutdown a@5\n"])
        XCTAssertEqual(sink.endCount, 1)
        XCTAssertEqual(feed.count, 0)
    }

    func testACommitDuringAnEvaluationIsSentToo() {
        let bus = self.bus, store = self.store
        let feed = makeFeed { call in if call == 2 { store.commit("b", 1, on: bus) } }
        let sink = RecordingSink()
        guard start(feed, [FeedCursor(topic: "a", after: 0), FeedCursor(topic: "b", after: 0)], sink: sink) != nil else {
            return XCTFail("not opened")
        }
        store.commit("a", 1, on: bus)
        feed.waitForEvaluations()
        // The woken evaluation read "b" before its commit landed; it runs again and sends it.
        XCTAssertEqual(sink.chunks, ["a=1\n", "b=1\n"])
        XCTAssertEqual(store.callCount, 3)
    }

    func testAClientThatLeftIsReleased() {
        let feed = makeFeed()
        let sink = RecordingSink()
        guard let writer = start(feed, [FeedCursor(topic: "a", after: 0)], sink: sink) else { return XCTFail("not opened") }
        writer.clientGone()
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0)
        store.commit("a", 1, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.chunks, [])
    }

    func testAResponseThatNeverStartsReleasesItsWaiter() {
        let feed = makeFeed()
        do {
            let response = feed.open(key: "k", cursors: [FeedCursor(topic: "a", after: 0)], payload: "p")
            XCTAssertNotNil(response)
            XCTAssertEqual(feed.count, 1)
        }
        XCTAssertEqual(feed.count, 0)
        XCTAssertEqual(bus.subscriberCount("a"), 0)
    }

    func testPerKeyCapIsCheckedBeforeTheResponse() {
        let feed = makeFeed(maxPerKey: 1)
        let first = feed.open(key: "k", cursors: [], payload: "p")
        XCTAssertNotNil(first)
        XCTAssertNil(feed.open(key: "k", cursors: [], payload: "p"))
        XCTAssertNotNil(feed.open(key: "other", cursors: [], payload: "p"))
    }

    func testTheResponseKeepsTheHeadsStatusAndHeaders() {
        let feed = makeFeed()
        var head = HTTPResponse(status: .ok)
        head.headers.add("Content-Type", "text/event-stream")
        let response = feed.open(key: "k", cursors: [], payload: "p", head: head)
        XCTAssertEqual(response?.headers["Content-Type"], "text/event-stream")
        guard case .stream? = response?.body else { return XCTFail("not a stream") }
    }

    func testABacklogSentInPiecesIsReadAgainAtOnceUntilItIsDone() {
        // Each evaluation sends one piece (one step of the cursor) and says whether more remain.
        store.set("a", 4)
        let store = self.store
        let feed = StreamFeed<String>(bus: bus, label: "test.pieces", maxPerKey: 10, evaluator: { waiters in
            var chunks: [Int: FeedChunk] = [:]
            for waiter in waiters {
                guard let cursor = waiter.cursors.first, store.sequence("a") > cursor.after else { continue }
                let next = cursor.after + 1
                chunks[waiter.id] = .more(Array("a=\(next)\n".utf8), cursors: [FeedCursor(topic: "a", after: next)],
                                          hasMore: next < store.sequence("a"))
            }
            return chunks
        }, closing: { _, _ in [] })
        let sink = RecordingSink()
        guard start(feed, [FeedCursor(topic: "a", after: 1)], sink: sink) != nil else { return XCTFail("not opened") }
        XCTAssertEqual(sink.chunks, ["a=2\n", "a=3\n", "a=4\n"], "every piece without waiting for an event")
        XCTAssertEqual(feed.count, 1)
        store.commit("a", 5, on: bus)
        feed.waitForEvaluations()
        XCTAssertEqual(sink.chunks.last, "a=5\n")
    }

    /// Sends one piece per evaluation, as `testABacklogSentInPiecesIsReadAgainAtOnceUntilItIsDone`; `during`
    /// runs after each piece is read (the call count given).
    private func makePiecesFeed(during: @escaping @Sendable (Int) -> Void) -> StreamFeed<String> {
        let store = self.store
        let calls = LockedBox<Int>(0)
        return StreamFeed<String>(bus: bus, label: "test.pieces.end", maxPerKey: 10, evaluator: { waiters in
            var chunks: [Int: FeedChunk] = [:]
            for waiter in waiters {
                guard let cursor = waiter.cursors.first, store.sequence("a") > cursor.after else { continue }
                let next = cursor.after + 1
                chunks[waiter.id] = .more(Array("a=\(next)\n".utf8), cursors: [FeedCursor(topic: "a", after: next)],
                                          hasMore: next < store.sequence("a"))
            }
            let call = calls.get() + 1
            calls.set(call)
            during(call)
            return chunks
        }, closing: { waiter, reason in
            Array("end \(reason) \(waiter.cursors.map { "\($0.topic)@\($0.after)" }.joined(separator: ","))\n".utf8)
        })
    }

    func testATimeoutDuringABacklogLetsTheBacklogFinishFirst() {
        store.set("a", 5)
        let writerBox = LockedBox<StreamWriter?>(nil)
        // The time-out passes while the first piece is read (a `timeout=0` stream's deadline does).
        let feed = makePiecesFeed { call in if call == 1 { writerBox.get()?.serverEnds(.timeout) } }
        let sink = RecordingSink()
        guard let response = feed.open(key: "k", cursors: [FeedCursor(topic: "a", after: 1)], payload: "p"),
              case .stream(let producer) = response.body else { return XCTFail("not opened") }
        let writer = StreamWriter(sink: sink, token: StreamToken(connection: 1, sequence: 1))
        writerBox.set(writer)
        producer(writer)
        XCTAssertEqual(sink.chunks, ["a=2\n", "a=3\n", "a=4\n", "a=5\n", "end timeout a@5\n"],
                       "the whole backlog, then the closing chunk")
        XCTAssertEqual(sink.endCount, 1)
        XCTAssertEqual(feed.count, 0)
    }

    func testAShutdownDuringABacklogEndsAfterTheCurrentPiece() {
        store.set("a", 5)
        let writerBox = LockedBox<StreamWriter?>(nil)
        let feed = makePiecesFeed { call in if call == 1 { writerBox.get()?.serverEnds(.shutdown) } }
        let sink = RecordingSink()
        guard let response = feed.open(key: "k", cursors: [FeedCursor(topic: "a", after: 1)], payload: "p"),
              case .stream(let producer) = response.body else { return XCTFail("not opened") }
        let writer = StreamWriter(sink: sink, token: StreamToken(connection: 1, sequence: 1))
        writerBox.set(writer)
        producer(writer)
        XCTAssertEqual(sink.chunks, ["a=2\n", "end shutdown a@2\n"])
        XCTAssertEqual(sink.endCount, 1)
        XCTAssertEqual(feed.count, 0)
    }
}
