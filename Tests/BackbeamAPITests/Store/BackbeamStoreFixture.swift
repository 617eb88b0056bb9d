import Foundation
import Logging
import Core
import Storage
@testable import BackbeamAPI

/// A temporary database with the Backbeam tables (the backbeam migration applied directly, so these tests do
/// not depend on the other APIs' migrations), one space, and helpers that write and read like the routes.
final class BackbeamStoreFixture: @unchecked Sendable {
    let directory: URL
    let storage: Storage
    let store: SQLiteBackbeamStore
    let space: SpaceID
    var schema: ProjectSchema?
    var clock: Int64 = 1_400_000_000_000

    /// `readerCount`: the storage's read connections (1 makes every query use the same one).
    init(readerCount: Int = StorageOptions(path: "").readerCount) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bb-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var options = StorageOptions(path: directory.appendingPathComponent("quartet.sqlite").path)
        options.synchronous = "OFF"
        options.readerCount = readerCount
        storage = try Storage(options: options, logger: Logger(label: "test"))
        // The core Backbeam tables and the users/push ones; the files tables need the core migration's blob
        // references, so the file tests add them themselves.
        for file in [try Self.migration(), try Self.migration(suffix: "_backbeam_mail_push.sql")] {
            let sql = try String(contentsOf: file, encoding: .utf8)
            try storage.writeAndWait { ctx in try ctx.db.execute(sql) }
        }
        store = SQLiteBackbeamStore(storage: storage)
        space = try store.space(project: "demo", env: .dev, create: true) ?? SpaceID(0)
    }

    deinit {
        storage.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The Backbeam migration file (or the one ending in `suffix`), whatever its number.
    static func migration(suffix: String = "_backbeam.sql") throws -> URL {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        guard let name = names.first(where: { $0.hasSuffix(suffix) }) else { throw StorageError.migration("no \(suffix) migration") }
        return dir.appendingPathComponent(name)
    }

    func tick() -> Int64 {
        clock += 1000
        return clock
    }

    /// Creates an object from `name=value` command pairs (`set-name`, `add-tags`, ...).
    @discardableResult
    func create(_ entity: String, _ commands: [(String, String)]) throws -> ObjectRecord {
        let set = try CommandParser.parse(BackbeamParameters(scalars: commands), entity: entity)
        return try store.create(WriteRequest(space: space, entity: entity, commands: set, schema: schema, now: tick()))
    }

    @discardableResult
    func update(_ entity: String, _ id: String, _ commands: [(String, String)]) throws -> ObjectRecord? {
        let set = try CommandParser.parse(BackbeamParameters(scalars: commands), entity: entity)
        return try store.update(WriteRequest(space: space, entity: entity, id: id, commands: set, schema: schema, now: tick()))
    }

    /// Runs `q` with `params` and returns the page.
    func query(_ entity: String, _ q: String = "", _ params: [String] = [], limit: Int? = 100, offset: Int = 0,
               geo: GeoFilter? = nil) throws -> ObjectPage {
        let bound = try BQLBoundQuery.bind(try BQLParser.parse(q), params: params)
        return try store.query(QueryRequest(space: space, entity: entity, query: bound, limit: limit, offset: offset,
                                            geo: geo, schema: schema))
    }

    /// The list body of a query, parsed.
    func listJSON(_ entity: String, _ q: String = "", _ params: [String] = [], limit: Int? = 100) throws -> JSON {
        try JSONParser.parse(PageBodies.list(try query(entity, q, params, limit: limit)))
    }

    /// One object of a page as JSON.
    func object(_ page: ObjectPage, _ id: String) throws -> JSON? {
        let body = try JSONParser.parse(PageBodies.list(page))
        return body["objects"]?[id]
    }
}
