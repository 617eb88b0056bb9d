import Foundation
import Logging
import XCTest
@testable import Storage

/// A fresh temporary directory removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "quartet-storage-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// A logger that drops everything (keeps test output readable).
let quietLogger = Logger(label: "quartet.storage.tests") { _ in SwiftLogNoOpLogHandler() }

/// Opens a Storage in a new temporary directory; closed at teardown.
func makeStorage(_ test: XCTestCase, observer: (any StorageObserver)? = nil,
                 configure: (inout StorageOptions) -> Void = { _ in }) throws -> (Storage, String) {
    let dir = try makeTemporaryDirectory(test)
    var options = StorageOptions(path: dir + "/test.sqlite3")
    configure(&options)
    let storage = try Storage(options: options, logger: quietLogger, observer: observer)
    test.addTeardownBlock { storage.close() }
    return (storage, dir)
}

/// Records what the writer reports.
final class RecordingObserver: StorageObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var _batches: [Int] = []
    private var _depths: [Int] = []
    private var _busyRetries = 0
    private var _jobs: [(seconds: Double, failed: Bool)] = []

    var batches: [Int] { lock.withLock { _batches } }
    var depths: [Int] { lock.withLock { _depths } }
    var busyRetries: Int { lock.withLock { _busyRetries } }
    var jobs: [(seconds: Double, failed: Bool)] { lock.withLock { _jobs } }

    func batchCommitted(jobs: Int, seconds: Double) { lock.withLock { _batches.append(jobs) } }
    func queueDepthChanged(_ depth: Int) { lock.withLock { _depths.append(depth) } }
    func busyRetry() { lock.withLock { _busyRetries += 1 } }
    func jobFinished(seconds: Double, failed: Bool) { lock.withLock { _jobs.append((seconds, failed)) } }
}

/// A thread-safe list for collecting results from callbacks.
final class Collector<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}

/// Asserts `expression` throws a StorageError matching `matches`.
func assertStorageError<T>(_ expression: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line,
                           _ matches: (StorageError) -> Bool) {
    do {
        _ = try expression()
        XCTFail("expected a StorageError", file: file, line: line)
    } catch let error as StorageError {
        XCTAssertTrue(matches(error), "unexpected error \(error)", file: file, line: line)
    } catch {
        XCTFail("expected a StorageError, got \(error)", file: file, line: line)
    }
}
