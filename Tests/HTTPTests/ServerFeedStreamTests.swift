import Foundation
import Glibc
import XCTest
@testable import HTTP

extension RawClient {
    /// Reads the next chunk of a chunked body; nil for the terminating chunk (its trailer is consumed).
    func readChunk() throws -> String? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine, radix: 16) else { throw ClientError.malformed(sizeLine) }
        if size == 0 {
            _ = try readLine()
            return nil
        }
        let bytes = try readExactly(size)
        _ = try readLine()
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Long-lived streams (change feeds): heartbeats and deadlines on the event loop's timers, the producer's
/// closing chunk at a deadline or shutdown, and the idle time-out that applies only to a client not reading.
final class ServerFeedStreamTests: XCTestCase {
    /// A server whose `/feed` writes "start\n", lets `setUp` configure the writer, and hands it to the test.
    private func feedServer(_ configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
                            setUp: @escaping @Sendable (StreamWriter) -> Void) throws
        -> (TestServer, LockedBox<StreamWriter?>) {
        let box = LockedBox<StreamWriter?>(nil)
        let server = try TestServer(configure: configure) { router in
            router.group("").get("/feed") { _ in
                .response(HTTPResponse(status: .ok, body: .stream { writer in
                    writer.write(Array("start\n".utf8))
                    setUp(writer)
                    box.set(writer)
                }))
            }
            router.group("").get("/now") { _ in .response(.text(.ok, "now")) }
        }
        return (server, box)
    }

    private func openFeed(_ server: TestServer) throws -> RawClient {
        let client = try server.client()
        try client.send("GET /feed HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = try client.readResponse(head: true)
        XCTAssertEqual(head.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(try client.readChunk(), "start\n")
        return client
    }

    func testHeartbeatsWhileIdleThenALastChunkEndsTheBodyAndTheConnectionIsReused() throws {
        let (server, box) = try feedServer { writer in writer.heartbeat(every: .milliseconds(30), bytes: Array("\n".utf8)) }
        let client = try openFeed(server)
        XCTAssertEqual(try client.readChunk(), "\n")
        XCTAssertEqual(try client.readChunk(), "\n")
        box.get()?.finish(with: Array("bye\n".utf8))
        // Heartbeats already on their way may precede it; nothing follows it but the end.
        var chunk = try client.readChunk()
        while chunk == "\n" { chunk = try client.readChunk() }
        XCTAssertEqual(chunk, "bye\n")
        XCTAssertNil(try client.readChunk())
        XCTAssertEqual(try client.request("GET", "/now").text, "now")
    }

    func testTheDeadlineRunsTheEndHandlerWhichSendsTheClosingChunk() throws {
        let (server, _) = try feedServer { writer in
            writer.onEnd { reason in writer.finish(with: Array("end \(reason)\n".utf8)) }
            writer.endAfter(.milliseconds(100))
        }
        let client = try openFeed(server)
        XCTAssertEqual(try client.readChunk(), "end timeout\n")
        XCTAssertNil(try client.readChunk())
        XCTAssertEqual(try client.request("GET", "/now").text, "now")
    }

    func testTheDeadlineWithoutAHandlerFinishesTheStreamAndTellsTheProducer() throws {
        let closed = LockedBox(false)
        let (server, box) = try feedServer { writer in
            writer.onClose { closed.set(true) }
            writer.endAfter(.milliseconds(100), sinceLastWrite: false)
        }
        let client = try openFeed(server)
        XCTAssertNil(try client.readChunk())
        XCTAssertTrue(eventually { closed.get() })
        XCTAssertEqual(box.get()?.write([1]), false)
    }

    func testShutdownRunsTheEndHandlerAndClosesAfterTheClosingChunk() throws {
        let (server, _) = try feedServer({ $0.shutdownGrace = .seconds(5) }) { writer in
            writer.onEnd { reason in writer.finish(with: Array("end \(reason)\n".utf8)) }
        }
        let client = try openFeed(server)
        let stopped = LockedBox(false)
        let http = server.server
        Thread.detachNewThread {
            http.shutdown()
            stopped.set(true)
        }
        XCTAssertEqual(try client.readChunk(), "end shutdown\n")
        XCTAssertNil(try client.readChunk())
        XCTAssertTrue(client.waitForClose())
        XCTAssertTrue(eventually { stopped.get() })
    }

    func testShutdownWithoutAHandlerEndsTheStreamAtOnce() throws {
        let (server, _) = try feedServer({ $0.shutdownGrace = .seconds(5) }) { _ in }
        let client = try openFeed(server)
        let http = server.server
        Thread.detachNewThread { http.shutdown() }
        XCTAssertNil(try client.readChunk())
        XCTAssertTrue(client.waitForClose())
    }

    func testAFeedOutlivesTheIdleTimeoutWhileItsOutputIsSent() throws {
        let (server, _) = try feedServer({ $0.idleTimeout = .milliseconds(400) }) { writer in
            writer.onEnd { reason in writer.finish(with: Array("end \(reason)\n".utf8)) }
            writer.endAfter(.milliseconds(1500))
        }
        let client = try openFeed(server)
        // A plain stream this silent would be closed after 400 ms.
        XCTAssertEqual(try client.readChunk(), "end timeout\n")
        XCTAssertNil(try client.readChunk())
    }

    func testAPlainStreamStillHasTheIdleTimeout() throws {
        let (server, _) = try feedServer({ $0.idleTimeout = .milliseconds(150) }) { _ in }
        let client = try openFeed(server)
        XCTAssertTrue(client.waitForClose())
    }
}
