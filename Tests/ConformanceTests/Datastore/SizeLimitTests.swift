import Foundation
import XCTest
import Core

/// DS-142 … DS-149: size accounting and limits with the default 10 % headroom.
final class DatastoreSizeLimitTests: DatastoreTestCase {
    private func pad(_ n: Int) -> String { String(repeating: "x", count: n) }

    func test_DS_142_record_limit_with_headroom() throws {
        let h = try ds.create()
        // 100 (record) + 100 (field) + n bytes of string.
        assertError(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"big\",{\"s\":\"\(pad(112_441))\"}]]"), 400, contains: "too large")
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"ok\",{\"s\":\"\(pad(112_440))\"}]]").text, "{\"rev\":1}")
    }

    func test_DS_144_delta_limit() throws {
        let h = try ds.create()
        try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{}]]")
        let op = "[\"U\",\"t\",\"r\",{\"s\":[\"P\",\"\(pad(100_000))\"]}]"
        // 100 + 24 × (100 + 100 + 100,000) = 2,404,900 > 2,306,867.
        let big = "[" + Array(repeating: op, count: 24).joined(separator: ",") + "]"
        assertError(try ds.put(h, rev: 1, big), 400, contains: "delta too large")
        XCTAssertEqual(try rev(h), 1)
        let fits = "[" + Array(repeating: op, count: 23).joined(separator: ",") + "]"
        XCTAssertEqual(try ds.put(h, rev: 1, fits).text, "{\"rev\":2}")
    }

    func test_DS_145_datastore_limit_and_shrinking_after_lowering() throws {
        let dir = ds.server.dataDirectory
        let h = try ds.create()
        var rev = 0
        // 110 records of 100,100 bytes: 1000 + 110 × 100,100 = 11,012,000 (≤ 11,534,336).
        for batch in 0..<11 {
            let changes = (0..<10).map { "[\"I\",\"t\",\"r\(batch)_\($0)\",{\"s\":\"\(pad(99_900))\"}]" }
            XCTAssertEqual(try ds.put(h, rev: rev, "[" + changes.joined(separator: ",") + "]").text, "{\"rev\":\(rev + 1)}")
            rev += 1
        }
        let grow = (0..<6).map { "[\"I\",\"t\",\"g\($0)\",{\"s\":\"\(pad(99_900))\"}]" }
        assertError(try ds.put(h, rev: rev, "[" + grow.joined(separator: ",") + "]"), 400, contains: "datastore too large")
        ds.server.stop(removeData: false)
        ds = try DatastoreServer(environment: ["QUARTET_DATASTORE_SIZE_HEADROOM_PERCENT": "0"], dataDirectory: dir)
        assertError(try ds.put(h, rev: rev, "[[\"I\",\"t\",\"small\",{}]]"), 400, contains: "datastore too large")
        XCTAssertEqual(try ds.put(h, rev: rev, "[[\"D\",\"t\",\"r0_0\"]]").text, "{\"rev\":\(rev + 1)}")
    }

    func test_DS_146_record_count_limit() throws {
        let h = try ds.create()
        for batch in 0..<5 {
            let changes = (0..<22_000).map { "[\"I\",\"t\",\"r\(batch)_\($0)\",{}]" }
            XCTAssertEqual(try ds.put(h, rev: batch, "[" + changes.joined(separator: ",") + "]").text, "{\"rev\":\(batch + 1)}")
        }
        assertError(try ds.put(h, rev: 5, "[[\"I\",\"t\",\"one_more\",{}]]"), 400, contains: "too many records")
        XCTAssertEqual(try ds.put(h, rev: 5, "[[\"D\",\"t\",\"r0_0\"],[\"I\",\"t\",\"swap\",{}]]").text, "{\"rev\":6}")
    }

    func test_DS_147_worked_example_accounting() throws {
        let h = try ds.create()
        // 100 + (100 + name) + (100 + 0) + (100 + 41) = 441 + name bytes.
        func record(_ rid: String, _ n: Int) -> String {
            "[[\"I\",\"tasks\",\"\(rid)\",{\"name\":\"\(pad(n))\",\"n\":{\"I\":\"5\"},\"items\":[\"a\",2]}]]"
        }
        assertError(try ds.put(h, rev: 0, record("over", 112_200)), 400, contains: "112641")
        XCTAssertEqual(try ds.put(h, rev: 0, record("exact", 112_199)).text, "{\"rev\":1}")
    }

    func test_DS_148_bytes_counted_exactly() throws {
        let h = try ds.create()
        // 112,439 bytes encode to 149,919 characters (≡ 3 mod 4): 100 + 100 + 112,439 = 112,639.
        let fits = DatastoreServer.encodeBytes(count: 112_439)
        XCTAssertEqual(fits.count % 4, 3)
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"a\",{\"b\":{\"B\":\"\(fits)\"}}]]").text, "{\"rev\":1}")
        // 112,441 bytes encode to 149,922 characters (≡ 2 mod 4): 112,641 → refused.
        let over = DatastoreServer.encodeBytes(count: 112_441)
        XCTAssertEqual(over.count % 4, 2)
        assertError(try ds.put(h, rev: 1, "[[\"I\",\"t\",\"b\",{\"b\":{\"B\":\"\(over)\"}}]]"), 400, contains: "112641")
    }

    func test_DS_149_final_state_counts() throws {
        let h = try ds.create()
        let changes = "[[\"I\",\"t\",\"tmp\",{\"s\":\"\(pad(200_000))\"}],[\"D\",\"t\",\"tmp\"]]"
        XCTAssertEqual(try ds.put(h, rev: 0, changes).text, "{\"rev\":1}")
    }
}

/// DS-143: exact enforcement with headroom 0.
final class DatastoreExactLimitTests: DatastoreTestCase {
    override var environment: [String: String] { ["QUARTET_DATASTORE_SIZE_HEADROOM_PERCENT": "0"] }

    func test_DS_143_headroom_zero() throws {
        let h = try ds.create()
        assertError(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{\"s\":\"\(String(repeating: "x", count: 102_201))\"}]]"), 400)
        XCTAssertEqual(try ds.put(h, rev: 0, "[[\"I\",\"t\",\"r\",{\"s\":\"\(String(repeating: "x", count: 102_200))\"}]]").text,
                       "{\"rev\":1}")
    }
}

extension DatastoreServer {
    /// dbase64 of `count` zero-ish bytes.
    static func encodeBytes(count: Int) -> String {
        Base64.encodeURLSafe([UInt8](repeating: 0xAB, count: count), padded: false)
    }
}
