import XCTest
import Core

/// Deltas whose application used to be quadratic on the single writer (issue 19, item 2): each is refused at
/// the delta limit without being applied, or applied with the same outcome as before.
final class DatastoreDeltaWorkTests: DatastoreTestCase {
    /// 40,000 list inserts at the front of one list (3 MB of form data, 8 MB by the accounting, over the 2.3 MB
    /// delta limit): refused as too large, before its changes run; nothing is stored.
    func testAnOversizedDeltaIsRefusedBeforeItIsApplied() throws {
        let h = try ds.create()
        let ops = Array(repeating: #"["U","t","r",{"l":["LI",0,1]}]"#, count: 40_000).joined(separator: ",")
        assertError(try ds.put(h, rev: 0, #"[["I","t","r",{"l":[]}],"# + ops + "]"), 400, contains: "delta too large")
        XCTAssertEqual(try rev(h), 0)
    }

    /// One record given 5,000 fields, then 4,000 of them deleted one change at a time, and a list built at
    /// its front: accepted, with the fields left in their order.
    func testManySmallChangesToOneWideRecord() throws {
        let h = try ds.create()
        let put = (0..<5_000).map { "\"f\($0)\":[\"P\",\($0)]" }.joined(separator: ",")
        var changes = [#"["I","t","r",{}]"#, #"["U","t","r",{"#+put+"}]"]
        changes += (0..<4_000).map { #"["U","t","r",{"f\#($0)":["D"]}]"# }
        changes += (0..<500).map { #"["U","t","r",{"l":["LI",0,\#($0)]}]"# }
        XCTAssertEqual(try ds.put(h, rev: 0, "[" + changes.joined(separator: ",") + "]").text, "{\"rev\":1}")
        let snapshot = try ds.snapshot(h)
        let rows = snapshot["rows"]?.arrayValue ?? []
        XCTAssertEqual(rows.count, 1, snapshot.text)
        let data = try XCTUnwrap(rows.first?["data"]?.objectValue)
        XCTAssertEqual(data.keys, (4_000..<5_000).map { "f\($0)" } + ["l"])
        XCTAssertEqual(data["l"]?.arrayValue?.first, 499)
        XCTAssertEqual(data["l"]?.arrayValue?.count, 500)
    }
}
