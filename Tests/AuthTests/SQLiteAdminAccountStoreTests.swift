import XCTest
import Foundation
import Logging
import Storage
@testable import Auth

final class SQLiteAdminAccountStoreTests: XCTestCase {
    func testStoresAndReplacesTheHashInTheSharedTable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = StorageOptions(path: directory.appendingPathComponent("quartet.sqlite3").path)
        options.synchronous = "OFF"
        let storage = try Storage(options: options, logger: Logger(label: "test"))
        defer { storage.close() }
        // The repository's migrations create quartet_admin_users.
        let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Migrations")
        _ = try Migrator.migrate(storage, migrations: try Migrator.load(directory: migrations.path))

        let store = SQLiteAdminAccountStore(storage: storage)
        XCTAssertNil(try store.passwordHash(name: "admin"))
        try store.setPasswordHash(name: "admin", hash: "h1", createdAt: 1)
        XCTAssertEqual(try store.passwordHash(name: "admin"), "h1")
        try store.setPasswordHash(name: "admin", hash: "h2", createdAt: 2)
        XCTAssertEqual(try store.passwordHash(name: "admin"), "h2")
        XCTAssertNil(try store.passwordHash(name: "other"))

        let admin = ServerAdmin(name: "admin", store: store, hashCost: 4)
        XCTAssertNil(try admin.ensureAccount(configuredPassword: "pw"))
        XCTAssertEqual(admin.verify(name: "admin", password: "pw", clientAddress: "127.0.0.1"), .ok)
    }
}
