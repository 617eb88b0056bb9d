import Foundation
import Logging
import XCTest
@testable import HTTP

/// Collects observer calls.
final class RecordingObserver: ServerObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [(group: String, method: String, status: Int)] = []
    private var maxOpen = 0

    func requestCompleted(group: String, method: String, status: Int, seconds: Double) {
        lock.withLock { requests.append((group, method, status)) }
    }

    func connectionsChanged(open: Int, parked: Int) {
        lock.withLock { maxOpen = max(maxOpen, open) }
    }

    var completed: [(group: String, method: String, status: Int)] { lock.withLock { requests } }
    var highestOpen: Int { lock.withLock { maxOpen } }
}

/// A log handler that keeps the messages it receives.
struct CapturingLogHandler: LogHandler {
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let requestID = event.metadata?["request-id"].map { "\($0)" } ?? "-"
        store.add("\(event.message) id=\(requestID)")
    }
}

final class ServerObservationTests: XCTestCase {
    func testObserverSeesEveryRequestAndTheOpenConnections() throws {
        let observer = RecordingObserver()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.accessLog = false
        let router = Router()
        router.group("/api").get("/ok") { _ in .response(.text(.ok, "ok")) }
        let server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "test"),
                                observer: observer)
        let port = try server.start()
        defer { server.shutdown() }
        let first = try RawClient(port: port)
        let second = try RawClient(port: port)
        XCTAssertEqual(try first.request("GET", "/api/ok").status, 200)
        XCTAssertEqual(try second.request("POST", "/api/ok").status, 405)
        XCTAssertEqual(try second.request("GET", "/elsewhere").status, 404)
        XCTAssertTrue(eventually { observer.completed.count == 3 })
        let statuses = observer.completed.map(\.status).sorted()
        XCTAssertEqual(statuses, [200, 404, 405])
        XCTAssertTrue(observer.completed.contains { $0.group == "/api" && $0.method == "GET" && $0.status == 200 })
        XCTAssertGreaterThanOrEqual(observer.highestOpen, 2)
    }

    func testAccessLogWritesOneLinePerRequest() throws {
        let store = CapturingLogHandler.Store()
        var configuration = ServerConfiguration()
        configuration.port = 0
        let router = Router()
        router.group("").get("/logged") { _ in .response(.text(.ok, "ok")) }
        let server = HTTPServer(configuration: configuration, router: router,
                                logger: Logger(label: "access") { _ in CapturingLogHandler(store: store) })
        let port = try server.start()
        defer { server.shutdown() }
        let client = try RawClient(port: port)
        _ = try client.request("GET", "/logged?x=1", headers: ["X-Request-Id": "trace-1"])
        _ = try client.request("GET", "/missing")
        XCTAssertTrue(eventually { store.all.count == 2 })
        XCTAssertTrue(store.all[0].hasPrefix("GET /logged?x=1 200 2B"), store.all[0])
        XCTAssertTrue(store.all[0].hasSuffix("id=trace-1"), store.all[0])
        XCTAssertTrue(store.all[1].hasPrefix("GET /missing 404"), store.all[1])
    }

    func testTwoIOThreadsServeManyConnections() throws {
        let server = try TestServer(configure: { $0.ioThreads = 2 }) { router in
            router.group("").get("/n/:n") { request in .response(.text(.ok, request.pathParameters["n"] ?? "")) }
        }
        var clients: [RawClient] = []
        for _ in 0..<20 { clients.append(try server.client()) }
        for round in 0..<3 {
            for (index, client) in clients.enumerated() {
                XCTAssertEqual(try client.request("GET", "/n/\(index)-\(round)").text, "\(index)-\(round)")
            }
        }
        XCTAssertEqual(server.server.openConnections, 20)
    }
}
