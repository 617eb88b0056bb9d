import Foundation
import Logging
import Storage
import XCTest

/// A fresh temporary directory removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "quartet-files-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// A blob store over a fresh storage in a temporary directory; closed at teardown.
func makeBlobStore(_ test: XCTestCase) throws -> (BlobStore, String) {
    let dir = try makeTemporaryDirectory(test)
    let storage = try Storage(options: StorageOptions(path: dir + "/test.sqlite3"),
                              logger: Logger(label: "quartet.files.tests") { _ in SwiftLogNoOpLogHandler() })
    test.addTeardownBlock { storage.close() }
    return (try BlobStore(directory: dir + "/blobs", storage: storage), dir)
}

/// Writes `bytes` to a new file in `directory` and returns its path.
func writeFile(_ bytes: [UInt8], in directory: String, name: String = UUID().uuidString) throws -> String {
    let path = directory + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}
