import Foundation
import Logging
import XCTest
import Core
import Storage
@testable import CouchAPI

/// A SQLite Couch store on a fresh temporary database with every migration applied.
final class StoreFixture: @unchecked Sendable {
    let directory: String
    let storage: Storage
    let blobs: BlobStore
    let store: SQLiteCouchStore

    static let logger = Logger(label: "quartet.couch.tests") { _ in SwiftLogNoOpLogHandler() }

    static var migrationsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Migrations").path
    }

    init(_ test: XCTestCase, directory existing: String? = nil) throws {
        let dir = existing ?? NSTemporaryDirectory() + "quartet-couch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if existing == nil { test.addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) } }
        directory = dir
        storage = try Storage(options: StorageOptions(path: dir + "/quartet.sqlite3"), logger: Self.logger)
        try Migrator.migrate(storage, migrations: try Migrator.load(directory: Self.migrationsDirectory))
        blobs = try BlobStore(directory: dir + "/blobs", storage: storage)
        store = try SQLiteCouchStore(storage: storage, blobs: blobs)
        let storage = self.storage
        test.addTeardownBlock { storage.close() }
    }

    /// `apply`, waiting for its durable outcome.
    func apply(_ database: String, _ edits: [DocumentEdit]) throws -> [EditOutcome] {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<[EditOutcome]>()
        store.apply(database: database, edits: edits) { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    /// One interactive edit of `json` (a body with optional special members), returning its outcome.
    func put(_ database: String, _ id: String, _ json: String, rev: String? = nil) throws -> EditOutcome {
        let edit = try Edits.interactive(id, json, rev: rev)
        return try apply(database, [edit])[0]
    }

    /// The revision text of an `.ok` outcome, failing the test otherwise.
    func revision(_ outcome: EditOutcome, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .ok(let rev) = outcome else {
            XCTFail("expected ok, got \(outcome)", file: file, line: line)
            return ""
        }
        return rev.description
    }

    func database(_ name: String) throws -> DatabaseRecord? {
        try store.read { try $0.database(named: name) }
    }

    func document(_ database: String, _ id: String) throws -> StoredDocument? {
        try store.read { reader in
            guard let db = try reader.database(named: database) else { return nil }
            return try reader.document(databaseID: db.id, id: id)
        }
    }

    /// The plain GET of a winner: (rev, deleted, body, atts) as text.
    func winner(_ database: String, _ id: String) throws -> Lookup<(String, Bool, String, String?)> {
        try store.winner(database: database, docID: id) { w in
            (String(decoding: w.rev, as: UTF8.self), w.deleted, String(decoding: w.body, as: UTF8.self),
             w.attachments.map { String(decoding: $0, as: UTF8.self) })
        }
    }
}

/// Builds edits the way the document handlers do.
enum Edits {
    static func interactive(_ id: String, _ json: String, rev: String? = nil,
                            attachments: [AttachmentInput] = []) throws -> DocumentEdit {
        let input = try DocumentInput(CouchJSON.parse(Array(json.utf8)))
        let requested = try rev.map { text throws(CouchError) in try RevID(parsing: text) } ?? input.namedRevision
        return try DocumentEdit(id: id, mode: .interactive(requested: requested), deleted: input.deleted,
                                body: input.body, bodyText: JSON.object(input.body).serializedBytes(),
                                attachments: attachments)
    }

    static func replicated(_ id: String, _ json: String, attachments: [AttachmentInput] = []) throws -> DocumentEdit {
        let input = try DocumentInput(CouchJSON.parse(Array(json.utf8)))
        return try DocumentEdit(id: id, mode: .replicated(input.replicatedPath()), deleted: input.deleted,
                                body: input.body, bodyText: JSON.object(input.body).serializedBytes(),
                                attachments: attachments)
    }
}

/// A result handed from a completion to the waiting test thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    func set(_ r: Result<T, any Error>) { lock.withLock { result = r } }
    func get() throws -> T {
        guard let result = lock.withLock({ result }) else { throw CouchStoreError.corrupt("no result") }
        return try result.get()
    }
}
