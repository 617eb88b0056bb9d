import Foundation
import XCTest
@testable import HTTP

/// Records what a parked response or stream hands to its connection.
final class RecordingSink: ResponseSink, @unchecked Sendable {
    private let lock = NSLock()
    private var completions: [(Int, UInt64)] = []
    private var chunks: [[UInt8]] = []
    private var finished = 0

    func streamChunk(_ bytes: [UInt8], token: StreamToken) { lock.withLock { chunks.append(bytes) } }
    func streamFinished(token: StreamToken) { lock.withLock { finished += 1 } }
    func parkedCompleted(_ response: HTTPResponse, token: StreamToken) {
        lock.withLock { completions.append((response.status.code, token.sequence)) }
    }

    var completedStatuses: [Int] { lock.withLock { completions.map(\.0) } }
    var chunkCount: Int { lock.withLock { chunks.count } }
    var finishCount: Int { lock.withLock { finished } }
}

final class ParkedResponseTests: XCTestCase {
    private let token = StreamToken(connection: 1, sequence: 9)

    func testFirstCompletionWinsAcrossThreads() {
        let sink = RecordingSink()
        let parked = ParkedResponse(timeout: .seconds(5)) { .text(.requestTimeout, "late") }
        parked.attach(sink: sink, token: token)
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            parked.complete(HTTPResponse(status: HTTPStatus(code: 200 + index)))
        }
        XCTAssertEqual(sink.completedStatuses.count, 1)
        XCTAssertTrue(parked.isCompleted)
        parked.fireTimeout()
        XCTAssertEqual(sink.completedStatuses.count, 1)
    }

    func testCompletionBeforeAttachIsDeliveredOnAttach() {
        let sink = RecordingSink()
        let parked = ParkedResponse(timeout: .seconds(5)) { .text(.requestTimeout, "late") }
        parked.complete(.text(.created, "early"))
        XCTAssertTrue(sink.completedStatuses.isEmpty)
        parked.attach(sink: sink, token: token)
        XCTAssertEqual(sink.completedStatuses, [201])
    }

    func testTimeoutSendsTheTimeoutResponse() {
        let sink = RecordingSink()
        let parked = ParkedResponse(timeout: .milliseconds(1)) { .text(.ok, "timeout") }
        parked.attach(sink: sink, token: token)
        parked.fireTimeout()
        XCTAssertEqual(sink.completedStatuses, [200])
        parked.complete(.text(.created, "too late"))
        XCTAssertEqual(sink.completedStatuses, [200])
    }

    func testClientGoneRunsCancelHandlersOnceAndIgnoresCompletion() {
        let sink = RecordingSink()
        let cancels = LockedBox(0)
        let parked = ParkedResponse(timeout: .seconds(5)) { .text(.ok, "timeout") }
        parked.onCancel { cancels.update { $0 += 1 } }
        parked.attach(sink: sink, token: token)
        parked.clientGone()
        parked.clientGone()
        parked.complete(.text(.ok, "ignored"))
        XCTAssertEqual(cancels.get(), 1)
        XCTAssertTrue(sink.completedStatuses.isEmpty)
        // A handler registered after the fact runs at once.
        parked.onCancel { cancels.update { $0 += 1 } }
        XCTAssertEqual(cancels.get(), 2)
    }

    func testCompletedRequestNeverRunsCancelHandlers() {
        let cancels = LockedBox(0)
        let parked = ParkedResponse(timeout: .seconds(5)) { .text(.ok, "timeout") }
        parked.onCancel { cancels.update { $0 += 1 } }
        parked.complete(.text(.ok, "done"))
        parked.clientGone()
        XCTAssertEqual(cancels.get(), 0)
    }

    func testServerShutdownCancelsThenAnswersWithTheTimeoutResponse() {
        let sink = RecordingSink()
        let cancels = LockedBox(0)
        let parked = ParkedResponse(timeout: .seconds(5)) { .text(.serviceUnavailable, "bye") }
        parked.onCancel { cancels.update { $0 += 1 } }
        parked.attach(sink: sink, token: token)
        parked.serverShutdown()
        XCTAssertEqual(cancels.get(), 1)
        XCTAssertEqual(sink.completedStatuses, [503])
    }

    func testAReplyAwaitingCompletionIsNotAnsweredByShutdown() {
        let sink = RecordingSink()
        let cancels = LockedBox(0)
        let parked = ParkedResponse(timeout: .seconds(5), awaitsCompletionOnShutdown: true) { .text(.serviceUnavailable, "bye") }
        parked.onCancel { cancels.update { $0 += 1 } }
        parked.attach(sink: sink, token: token)
        parked.serverShutdown()
        XCTAssertEqual(cancels.get(), 0)
        XCTAssertEqual(sink.completedStatuses, [])
        parked.complete(.text(.created, "written"))
        XCTAssertEqual(sink.completedStatuses, [201])
    }

    func testStreamWriterStopsAfterFinishOrClientGone() {
        let sink = RecordingSink()
        let writer = StreamWriter(sink: sink, token: token)
        let closes = LockedBox(0)
        writer.onClose { closes.update { $0 += 1 } }
        XCTAssertTrue(writer.write([1, 2]))
        XCTAssertTrue(writer.write([]))
        writer.finish()
        XCTAssertFalse(writer.write([3]))
        writer.finish()
        writer.clientGone()
        XCTAssertEqual(sink.chunkCount, 1)
        XCTAssertEqual(sink.finishCount, 1)
        XCTAssertEqual(closes.get(), 1)
    }
}
