import Foundation
import XCTest
import Core
import Storage
@testable import BackbeamAPI

/// File objects in the SQLite store (§5.3): versions, server-managed fields, blob references.
final class FileStoreTests: XCTestCase {
    var fixture: BackbeamStoreFixture!
    var blobs: BlobStore!
    var store: SQLiteBackbeamStore!

    override func setUpWithError() throws {
        fixture = try BackbeamStoreFixture()
        let migrations = try BackbeamStoreFixture.migration().deletingLastPathComponent()
        for name in ["0001_core.sql", "0006_backbeam_files.sql"] {
            let sql = try String(contentsOf: migrations.appendingPathComponent(name), encoding: .utf8)
            try fixture.storage.writeAndWait { ctx in try ctx.db.execute(sql) }
        }
        blobs = try BlobStore(directory: fixture.directory.appendingPathComponent("blobs").path, storage: fixture.storage)
        store = SQLiteBackbeamStore(storage: fixture.storage, blobs: blobs)
    }

    func content(_ bytes: [UInt8], name: String = "a.jpg", width: Int? = 8) throws -> FileContent {
        let ref = try blobs.store(bytes: bytes)
        return FileContent(blob: ref.hash, size: ref.size, filename: name, mime: "image/jpeg", width: width, height: width)
    }

    func write(_ id: String?, _ content: FileContent, commands: [(String, String)] = []) throws -> ObjectRecord? {
        let set = try CommandParser.parse(BackbeamParameters(scalars: commands), entity: "file")
        return try store.writeFile(WriteRequest(space: fixture.space, entity: "file", id: id, commands: set, now: fixture.tick()),
                                   content: content)
    }

    func members(_ record: ObjectRecord) throws -> JSON {
        try JSONParser.parse(Array("{".utf8) + record.vals + Array("}".utf8))
    }

    func testVersionsFieldsAndBlobReferences() throws {
        let first = try content([1, 2, 3])
        let created = try XCTUnwrap(try write(nil, first, commands: [("set-title", "T")]))
        var json = try members(created)
        XCTAssertEqual(json["version#n"]?.int64Value, 1)
        XCTAssertEqual(json["size#n"]?.int64Value, 3)
        XCTAssertEqual(json["filename#t"], .string("a.jpg"))
        XCTAssertEqual(json["width#n"]?.int64Value, 8)
        XCTAssertEqual(json["title#t"], .string("T"))
        XCTAssertEqual(try blobs.referenceCount(first.hash), 1)

        // A new version without an image header clears width and height; the old blob is released.
        let second = try content([4, 5], name: "b.bin", width: nil)
        let replaced = try XCTUnwrap(try write(created.id, second))
        json = try members(replaced)
        XCTAssertEqual(json["version#n"]?.int64Value, 2)
        XCTAssertNil(json["width#n"])
        XCTAssertEqual(json["title#t"], .string("T"))
        XCTAssertEqual(try blobs.referenceCount(first.hash), 0)
        XCTAssertEqual(try blobs.referenceCount(second.hash), 1)
        let stored = try XCTUnwrap(try store.fileContent(space: fixture.space, id: created.id))
        XCTAssertEqual(stored.blob, second.hash)
        XCTAssertEqual(stored.version, 2)
        XCTAssertEqual(stored.size, 2)

        // Deleting the object releases its blob and forgets its content.
        XCTAssertNotNil(try store.delete(space: fixture.space, entity: "file", id: created.id))
        XCTAssertEqual(try blobs.referenceCount(second.hash), 0)
        XCTAssertNil(try store.fileContent(space: fixture.space, id: created.id))
    }

    func testUnknownIdsAndOtherEntities() throws {
        let place = try fixture.create("place", [("set-name", "x")])
        let c = try content([9])
        XCTAssertNil(try write(place.id, c))
        XCTAssertNil(try write("nosuch00000", c))
        XCTAssertNil(try store.fileContent(space: fixture.space, id: place.id))
        // Nothing was referenced by the refused writes.
        XCTAssertNil(try blobs.referenceCount(c.hash))
    }

    func testRemoveByQueryReleasesBlobs() throws {
        let a = try content([1]), b = try content([2])
        _ = try write(nil, a)
        _ = try write(nil, b)
        let removed = try store.remove(QueryRequest(space: fixture.space, entity: "file",
                                                    query: try BQLBoundQuery.bind(try BQLParser.parse(""), params: []),
                                                    limit: nil, offset: 0, geo: nil, schema: nil))
        XCTAssertEqual(removed, 2)
        XCTAssertEqual(try blobs.referenceCount(a.hash), 0)
        XCTAssertEqual(try blobs.referenceCount(b.hash), 0)
    }
}

extension FileContent {
    var hash: String { blob }
}
