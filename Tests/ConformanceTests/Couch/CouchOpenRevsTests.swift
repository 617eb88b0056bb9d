import Foundation
import XCTest
import Core

/// Checklist CD-110…CD-114: `open_revs` (spec §3.3.2) for documents without attachments, as JSON and as
/// multipart/mixed.
final class CouchOpenRevsTests: CouchTestCase {
    private let root = CouchTestCase.hex("1"), a = CouchTestCase.hex("a"), f = CouchTestCase.hex("f")
    private let d = CouchTestCase.hex("d")

    /// Document `c` with live leaves 2-a and 2-f and a deleted leaf 2-d, all under 1-{root}.
    private func conflicted() throws {
        for (suffix, extra) in [(a, #","v":"a""#), (f, #","v":"f""#), (d, #","_deleted":true"#)] {
            let r = try send("PUT", "/db/c?new_edits=false",
                             body: #"{"_revisions":{"start":2,"ids":["\#(suffix)","\#(root)"]}\#(extra)}"#)
            XCTAssertEqual(r.status == 201 || r.status == 200, true, r.text)
        }
    }

    private let acceptJSON = [("Accept", "application/json")]

    func test_CD_110_allLeavesAsJSON() throws {
        try conflicted()
        let r = try send("GET", "/db/c?open_revs=all", headers: acceptJSON)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json")
        let entries = try XCTUnwrap(json(r).arrayValue)
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries.compactMap { $0["ok"]?["_rev"]?.stringValue }, ["2-\(a)", "2-\(d)", "2-\(f)"])
        XCTAssertEqual(entries[1]["ok"]?["_deleted"]?.boolValue, true)
    }

    func test_CD_111_explicitRevisionsInRequestOrder() throws {
        try conflicted()
        let missing = "9-\(Self.hex("9"))"
        let r = try send("GET", "/db/c?open_revs=" + pct(#"["2-\#(f)","\#(missing)"]"#), headers: acceptJSON)
        XCTAssertEqual(r.status, 200)
        let entries = try XCTUnwrap(json(r).arrayValue)
        XCTAssertEqual(entries.count, 2, r.text)
        XCTAssertEqual(entries.first?["ok"]?["_rev"]?.stringValue, "2-\(f)")
        XCTAssertEqual(entries.last?.serialized(), #"{"missing":"\#(missing)"}"#)
    }

    func test_CD_112_unknownDocuments() throws {
        assertError(try send("GET", "/db/nosuch?open_revs=all", headers: acceptJSON), 404, "not_found", "missing")
        let r = try send("GET", "/db/nosuch?open_revs=" + pct(#"["1-\#(a)"]"#), headers: acceptJSON)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(compact(r), #"[{"missing":"1-\#(a)"}]"#)
    }

    func test_CD_113_malformedOpenRevs() throws {
        try conflicted()
        assertError(try send("GET", "/db/c?open_revs=" + pct("[bad"), headers: acceptJSON), 400, "bad_request", "invalid UTF-8 JSON")
        assertError(try send("GET", "/db/c?open_revs=" + pct(#"{"a":1}"#), headers: acceptJSON), 400, "bad_request",
                    "Invalid list of revisions")
        assertError(try send("GET", "/db/c?open_revs=" + pct(#"["x"]"#), headers: acceptJSON), 400, "bad_request", "Invalid rev format")
    }

    func test_CD_114_latestLeadsToTheLeavesAndNonLeavesKeepTheirBodies() throws {
        let r1 = try put("n", #"{"v":1}"#)
        let r2 = try put("n", #"{"_rev":"\#(r1)","v":2}"#)
        let latest = json(try send("GET", "/db/n?latest=true&open_revs=" + pct(#"["\#(r1)"]"#), headers: acceptJSON))
        XCTAssertEqual(latest.arrayValue?.compactMap { $0["ok"]?["_rev"]?.stringValue }, [r2])
        let old = json(try send("GET", "/db/n?open_revs=" + pct(#"["\#(r1)"]"#), headers: acceptJSON))
        XCTAssertEqual(old[0]?["ok"]?["v"]?.int64Value, 1)
        XCTAssertEqual(try send("POST", "/db/_compact", body: "").status, 202)
        let deadline = Date().addingTimeInterval(10)
        while try info()["compact_running"]?.boolValue == true, Date() < deadline { usleep(20_000) }
        let compacted = json(try send("GET", "/db/n?open_revs=" + pct(#"["\#(r1)"]"#), headers: acceptJSON))
        XCTAssertEqual(compacted.serialized(), #"[{"missing":"\#(r1)"}]"#)
    }

    /// The multipart/mixed form of CD-115 for documents without attachments (parts for revisions with
    /// attachments come with the attachment routes).
    func testMultipartMixedWithoutAcceptAndForMissingRevisions() throws {
        let rev = try put("m", #"{"v":1}"#)
        let missing = "5-\(Self.hex("5"))"
        for headers in [[("Accept", "multipart/mixed")], []] {
            let r = try send("GET", "/db/m?revs=true&open_revs=" + pct(#"["\#(rev)","\#(missing)"]"#), headers: headers)
            XCTAssertEqual(r.status, 200)
            let type = try XCTUnwrap(r.header("Content-Type"))
            XCTAssertTrue(type.hasPrefix("multipart/mixed; boundary=\""), type)
            let boundary = String(type.dropFirst("multipart/mixed; boundary=\"".count).dropLast())
            let parts = r.text.components(separatedBy: "--" + boundary)
            XCTAssertEqual(parts.first, "")
            XCTAssertTrue(parts.last?.hasPrefix("--") ?? false)
            XCTAssertTrue(parts[1].hasPrefix("\r\nContent-Type: application/json\r\n\r\n{\"_id\":\"m\""), parts[1])
            XCTAssertTrue(parts[1].contains("\"_revisions\""))
            XCTAssertEqual(parts[2], "\r\nContent-Type: application/json; error=\"true\"\r\n\r\n{\"missing\":\"\(missing)\"}\r\n")
        }
    }
}
