import Foundation
import XCTest
import Core

/// Base class of the datastore conformance tests: a fresh server per test (state never leaks between
/// checklist items), with the configuration `environment` returns.
class DatastoreTestCase: XCTestCase {
    var ds: DatastoreServer!

    /// Extra `QUARTET_*` variables for this class's server.
    var environment: [String: String] { [:] }

    override func setUpWithError() throws {
        ds = try DatastoreServer(environment: environment)
    }

    override func tearDown() {
        ds?.server.stop()
        ds = nil
    }

    /// 4xx/5xx with a JSON `{"error": ...}` body and the exact JSON content type.
    func assertError(_ r: DSResponse, _ status: Int, contains text: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.text, file: file, line: line)
        XCTAssertEqual(r.header("Content-Type"), "application/json", file: file, line: line)
        guard let message = r["error"]?.stringValue else {
            return XCTFail("no error message in \(r.text)", file: file, line: line)
        }
        if let text { XCTAssertTrue(message.contains(text), "\(message) lacks \(text)", file: file, line: line) }
    }

    /// 200 with exactly one key, `key` (a soft outcome).
    func assertSoft(_ r: DSResponse, _ key: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        XCTAssertEqual(r.keys, [key], r.text, file: file, line: line)
        XCTAssertNotNil(r[key]?.stringValue, file: file, line: line)
    }

    /// The current rev of a handle, from get_snapshot.
    func rev(_ handle: String, token: String = DatastoreServer.tokenA) throws -> Int64? {
        try ds.snapshot(handle, token: token)["rev"]?.int64Value
    }

    /// Asserts that `body` of a JSON response serialises (compact, order kept) to `expected`.
    func assertJSON(_ value: JSON?, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(value?.serialized(), expected, file: file, line: line)
    }

    /// Runs `body` on another thread; the result arrives through the returned box.
    func background<T>(_ body: @escaping @Sendable () throws -> T) -> DSPending<T> {
        let pending = DSPending<T>()
        Thread.detachNewThread {
            let result = Result { try body() }
            pending.fulfil(result)
        }
        return pending
    }
}

/// A value computed on another thread.
final class DSPending<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func fulfil(_ r: Result<T, any Error>) {
        condition.lock(); result = r; condition.broadcast(); condition.unlock()
    }

    /// Waits up to `timeout` seconds; nil when still pending.
    func wait(_ timeout: TimeInterval) throws -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            if !condition.wait(until: deadline) { break }
        }
        return try result?.get()
    }

    /// Whether a result arrived.
    var isDone: Bool { condition.lock(); defer { condition.unlock() }; return result != nil }
}
