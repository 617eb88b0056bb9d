import XCTest
@testable import Storage

final class ColumnReaderTests: XCTestCase {
    func testColumnsAreReadByPositionAsTextBytesAndIntegers() throws {
        let (storage, _) = try makeStorage(self)
        try storage.writeAndWait { ctx in
            try ctx.db.execute("CREATE TABLE t (i INTEGER, s TEXT, b BLOB, n TEXT)")
            try ctx.db.run("INSERT INTO t VALUES (1, 'héllo', x'00ff', NULL), (2, '', x'', NULL), (3, 'x', NULL, 'y')")
        }
        struct Seen: Equatable { var i: Int64?; var s: String?; var b: [UInt8]?; var n: String?; var nullN: Bool; var past: String? }
        var seen: [Seen] = []
        try storage.read { db in
            try db.forEachRow("SELECT i, s, b, n FROM t ORDER BY i") { row in
                XCTAssertEqual(row.count, 4)
                seen.append(Seen(i: row.int64(0), s: row.string(1), b: row.bytes(2), n: row.string(3),
                                 nullN: row.isNull(3), past: row.string(4)))
                return true
            }
        }
        XCTAssertEqual(seen, [
            Seen(i: 1, s: "héllo", b: [0x00, 0xFF], n: nil, nullN: true, past: nil),
            Seen(i: 2, s: "", b: [], n: nil, nullN: true, past: nil),
            Seen(i: 3, s: "x", b: nil, n: "y", nullN: false, past: nil),
        ])
        // Bytes in SQLite's own buffer, and a stop after the first row.
        var lengths: [Int] = []
        try storage.read { db in
            try db.forEachRow("SELECT s FROM t ORDER BY i") { row in
                lengths.append(row.withBytes(0) { $0.count } ?? -1)
                return false
            }
        }
        XCTAssertEqual(lengths, [6])
        XCTAssertNil(try storage.read { db -> Int? in
            var value: Int? = 0
            try db.forEachRow("SELECT NULL") { row in value = row.withBytes(0) { $0.count }; return true }
            return value
        })
    }
}
