import Foundation
import Glibc
import Logging
import XCTest
import Storage
import HTTP
import ChangeFeed

/// A blocking loopback client that reads a response head and then chunk by chunk.
final class FeedClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, result == 0 else { throw Failure.io }
    }

    deinit { close(fd) }

    enum Failure: Error { case io, closed, malformed }

    func get(_ target: String) throws {
        let bytes = Array("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw Failure.io }
    }

    private func line() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 10), end > 0, buffer[end - 1] == 13 {
                let text = String(decoding: buffer[0..<(end - 1)], as: UTF8.self)
                buffer.removeFirst(end + 1)
                return text
            }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure.closed }
            buffer += chunk[0..<count]
        }
    }

    /// The status and headers of the next response.
    func head() throws -> (status: Int, headers: [String: String]) {
        let status = try line().split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        while true {
            let field = try line()
            if field.isEmpty { break }
            let parts = field.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (status, headers)
    }

    /// A body of `length` bytes.
    func body(_ length: Int) throws -> String {
        var text = ""
        while text.utf8.count < length {
            if buffer.isEmpty { buffer.append(contentsOf: Array(try line().utf8) + [13, 10]) }
            let take = min(length - text.utf8.count, buffer.count)
            text += String(decoding: buffer[0..<take], as: UTF8.self)
            buffer.removeFirst(take)
        }
        return text
    }

    /// The next chunk; nil for the terminating one.
    func chunk() throws -> String? {
        guard let size = Int(try line(), radix: 16) else { throw Failure.malformed }
        if size == 0 {
            _ = try line()
            return nil
        }
        let text = try body(size)
        _ = try line()
        return text
    }
}

/// Both shapes behind a real server: answers, heartbeats, time-outs, shutdown and clients that leave, with
/// change events published on a bus as the storage writer publishes them after a commit.
final class FeedServerTests: XCTestCase {
    private let bus = ChangeBus()
    private let store = FakeStore()
    private var server: HTTPServer?
    private var port = 0

    override func tearDown() { server?.shutdown() }

    private func start(pollTimeout: Duration = .seconds(30), streamOptions: FeedStreamOptions) throws
        -> (LongPollFeed<String>, StreamFeed<String>) {
        let store = self.store
        let polls = LongPollFeed<String>(bus: bus, label: "test.poll", maxPerKey: 10) { waiters in
            var answers: [Int: HTTPResponse] = [:]
            for waiter in waiters where store.sequence("db") > (waiter.cursors.first?.after ?? 0) {
                answers[waiter.id] = .text(.ok, "seq \(store.sequence("db"))")
            }
            return answers
        }
        let streams = StreamFeed<String>(bus: bus, label: "test.stream", maxPerKey: 10, evaluator: { waiters in
            var chunks: [Int: FeedChunk] = [:]
            for waiter in waiters {
                let after = waiter.cursors.first?.after ?? 0, now = store.sequence("db")
                guard now > after else { continue }
                let rows = (after + 1...now).map { "{\"seq\":\($0)}\n" }.joined()
                chunks[waiter.id] = .more(Array(rows.utf8), cursors: [FeedCursor(topic: "db", after: now)])
            }
            return chunks
        }, closing: { waiter, _ in Array("{\"last_seq\":\(waiter.cursors.first?.after ?? 0)}\n".utf8) })
        let router = Router()
        router.group("").get("/poll") { _ in
            polls.wait(key: "k", cursors: [FeedCursor(topic: "db", after: store.sequence("db"))], payload: "",
                       timeout: pollTimeout, onTimeout: { .text(.ok, "no change") }) ?? .response(.text(.serviceUnavailable, "busy"))
        }
        router.group("").get("/stream") { _ in
            .response(streams.open(key: "k", cursors: [FeedCursor(topic: "db", after: 0)], payload: "", options: streamOptions)
                      ?? .text(.serviceUnavailable, "busy"))
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workerThreads = 4
        configuration.accessLog = false
        configuration.shutdownGrace = .seconds(5)
        let server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "test"))
        port = try server.start()
        self.server = server
        return (polls, streams)
    }

    func testALongPollIsWokenByACommitAndTimesOutWithItsAnswer() throws {
        let (polls, _) = try start(pollTimeout: .milliseconds(1500), streamOptions: FeedStreamOptions())
        let woken = try FeedClient(port: port)
        try woken.get("/poll")
        XCTAssertTrue(eventually { polls.count == 1 })
        store.commit("db", 1, on: bus)
        XCTAssertEqual(try woken.head().headers["content-length"], "5")
        XCTAssertEqual(try woken.body(5), "seq 1")
        let idle = try FeedClient(port: port)
        try idle.get("/poll")
        XCTAssertEqual(try idle.head().status, 200)
        XCTAssertEqual(try idle.body(9), "no change")
        XCTAssertEqual(polls.count, 0)
    }

    func testALongPollIsAnsweredOnShutdownAndReleasedWhenItsClientLeaves() throws {
        let (polls, _) = try start(streamOptions: FeedStreamOptions())
        do {
            let leaving = try FeedClient(port: port)
            try leaving.get("/poll")
            XCTAssertTrue(eventually { polls.count == 1 })
        }
        XCTAssertTrue(eventually { polls.count == 0 })
        let waiting = try FeedClient(port: port)
        try waiting.get("/poll")
        XCTAssertTrue(eventually { polls.count == 1 })
        let server = self.server
        Thread.detachNewThread { server?.shutdown() }
        _ = try waiting.head()
        XCTAssertEqual(try waiting.body(9), "no change")
        XCTAssertEqual(polls.count, 0)
    }

    func testAStreamSendsBacklogChangesAndHeartbeatsThenEndsWithItsClosingLine() throws {
        store.set("db", 2)
        let options = FeedStreamOptions(heartbeat: (.milliseconds(40), Array("\n".utf8)), timeout: .seconds(2),
                                        timeoutSinceLastChunk: false)
        let (_, streams) = try start(streamOptions: options)
        let client = try FeedClient(port: port)
        try client.get("/stream")
        XCTAssertEqual(try client.head().headers["transfer-encoding"], "chunked")
        XCTAssertEqual(try client.chunk(), "{\"seq\":1}\n{\"seq\":2}\n")
        XCTAssertEqual(try client.chunk(), "\n", "a heartbeat while idle")
        store.commit("db", 3, on: bus)
        var chunk = try client.chunk()
        while chunk == "\n" { chunk = try client.chunk() }
        XCTAssertEqual(chunk, "{\"seq\":3}\n")
        chunk = try client.chunk()
        while chunk == "\n" { chunk = try client.chunk() }
        XCTAssertEqual(chunk, "{\"last_seq\":3}\n", "the time-out's closing line")
        XCTAssertNil(try client.chunk())
        XCTAssertTrue(eventually { streams.count == 0 })
    }

    func testAStreamEndsCleanlyOnShutdownAndIsReleasedWhenItsClientLeaves() throws {
        let (_, streams) = try start(streamOptions: FeedStreamOptions())
        do {
            let leaving = try FeedClient(port: port)
            try leaving.get("/stream")
            _ = try leaving.head()
            XCTAssertTrue(eventually { streams.count == 1 })
        }
        XCTAssertTrue(eventually { streams.count == 0 })
        XCTAssertEqual(bus.subscriberCount("db"), 0)
        let client = try FeedClient(port: port)
        try client.get("/stream")
        _ = try client.head()
        store.commit("db", 1, on: bus)
        XCTAssertEqual(try client.chunk(), "{\"seq\":1}\n")
        let server = self.server
        Thread.detachNewThread { server?.shutdown() }
        XCTAssertEqual(try client.chunk(), "{\"last_seq\":1}\n")
        XCTAssertNil(try client.chunk())
        XCTAssertEqual(streams.count, 0)
    }
}
