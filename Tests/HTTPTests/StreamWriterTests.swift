import Foundation
import XCTest
@testable import HTTP

/// The writer's own rules for ending: one end, a last chunk with it, and the server's end reaching the
/// producer's handler (or finishing the stream without one).
final class StreamWriterTests: XCTestCase {
    private let token = StreamToken(connection: 1, sequence: 3)

    func testFinishWithALastChunkSendsItOnceAndRunsCloseHandlersOnce() {
        let sink = RecordingSink()
        let writer = StreamWriter(sink: sink, token: token)
        let closes = LockedBox(0)
        writer.onClose { closes.update { $0 += 1 } }
        writer.finish(with: [1, 2, 3])
        writer.finish(with: [4])
        XCTAssertEqual(sink.chunkCount, 1)
        XCTAssertEqual(sink.finishCount, 1)
        XCTAssertEqual(closes.get(), 1)
        XCTAssertFalse(writer.write([5]))
    }

    func testServerEndRunsTheHandlerEachTimeUntilTheStreamCloses() {
        let sink = RecordingSink()
        let writer = StreamWriter(sink: sink, token: token)
        let reasons = LockedBox<[StreamEnd]>([])
        writer.onEnd { reason in reasons.update { $0.append(reason) } }
        XCTAssertTrue(writer.endsItself)
        writer.serverEnds(.timeout)
        writer.serverEnds(.shutdown)
        XCTAssertEqual(reasons.get(), [.timeout, .shutdown])
        XCTAssertEqual(sink.finishCount, 0, "the handler decides how the stream ends")
        writer.finish()
        writer.serverEnds(.shutdown)
        XCTAssertEqual(reasons.get(), [.timeout, .shutdown])
        XCTAssertFalse(writer.endsItself)
    }

    func testServerEndWithoutAHandlerFinishesTheStream() {
        let sink = RecordingSink()
        let writer = StreamWriter(sink: sink, token: token)
        XCTAssertFalse(writer.endsItself)
        writer.serverEnds(.timeout)
        XCTAssertTrue(writer.isClosed)
        XCTAssertEqual(sink.finishCount, 1)
    }

    func testAHandlerRegisteredAfterTheEndIsIgnored() {
        let writer = StreamWriter(sink: RecordingSink(), token: token)
        writer.clientGone()
        writer.onEnd { _ in XCTFail("must not run") }
        XCTAssertFalse(writer.endsItself)
        writer.serverEnds(.shutdown)
    }
}
