import Foundation
import Logging
import Storage
@testable import DatastoreAPI

/// A temporary database with the datastore schema (migration 0003 applied directly, so these tests do not
/// depend on the other APIs' migrations).
final class StoreFixture: @unchecked Sendable {
    let directory: URL
    let storage: Storage
    let store: SQLiteDatastoreStore

    init(headroomPercent: Int = 10, teams: [String: [String]] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ds-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var options = StorageOptions(path: directory.appendingPathComponent("quartet.sqlite").path)
        options.synchronous = "OFF"
        storage = try Storage(options: options, logger: Logger(label: "test"))
        let sql = try String(contentsOf: Self.migrationsDirectory.appendingPathComponent("0003_datastore.sql"), encoding: .utf8)
        try storage.writeAndWait { ctx in try ctx.db.execute(sql) }
        store = SQLiteDatastoreStore(storage: storage, limits: SizeLimits(headroomPercent: headroomPercent),
                                     teams: TeamDirectory(teams))
    }

    deinit {
        storage.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The repository's Migrations/ folder, from this file's location.
    static var migrationsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Migrations")
    }

    /// A user with a fresh token.
    func user(_ name: String) throws -> DatastoreUser {
        try store.issueToken(userName: name, tokenHash: "hash-\(name)-\(UUID().uuidString)", source: "cli")
    }

    /// Waits for an asynchronous store call.
    func wait<T: Sendable>(_ call: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        call { result in box.set(result); done.signal() }
        done.wait()
        guard let result = box.get() else { throw StorageError.closed }
        return try result.get()
    }
}

/// A lock-protected slot for a result delivered on another thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<T, any Error>?
    func set(_ v: Result<T, any Error>) { lock.lock(); value = v; lock.unlock() }
    func get() -> Result<T, any Error>? { lock.lock(); defer { lock.unlock() }; return value }
}
