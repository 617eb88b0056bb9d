import Foundation
import XCTest
import Core

/// Parameter encodings of the three SDKs: BB-014 … BB-025.
final class BackbeamEncodingTests: BackbeamTestCase {
    private let between = "where weight>=? and weight<=?"

    /// Items of weight 2, 4, 6; returns the id of the weight-4 one.
    private func seedWeights() throws -> String {
        var four = ""
        for w in ["2", "4", "6"] {
            let id = try create("item", p(("set-weight", w)))
            if w == "4" { four = id }
        }
        return four
    }

    func test_BB_014_paramsKeepTheirOrder() throws {
        let four = try seedWeights()
        XCTAssertEqual(try api.send("GET", "/data/item", [("q", [between]), ("params", ["3", "5"])]).ids, [four])
        let reversed = try api.send("GET", "/data/item", [("q", [between]), ("params", ["5", "3"])])
        XCTAssertEqual(reversed.status, 200, reversed.text)
        XCTAssertEqual(reversed.ids, [])
    }

    func test_BB_015_everyListEncoding() throws {
        let four = try seedWeights()
        for style in [SDKStyle.android, .node, .browser] {
            var c = api!
            c.style = style
            XCTAssertEqual(try c.send("GET", "/data/item", [("q", [between]), ("params", ["3", "5"])]).ids, [four], "\(style)")
        }
        // Android indexes arriving in reverse order are still bound by index.
        let signed = api.signed("GET", "/data/item", [("q", [between]), ("params", ["3", "5"])])
        var parts: [String] = ["params[1]=5", "params[0]=3"]
        for (name, values) in signed where name != "params" {
            parts.append(BackbeamClient.escape(name, style: .ios) + "=" + BackbeamClient.escape(values[0], style: .ios))
        }
        XCTAssertEqual(try api.raw("GET", "/data/item?" + parts.joined(separator: "&")).ids, [four])
    }

    func test_BB_016_elevenIndexedParamsInNumericOrder() throws {
        var sets: [(String, [String])] = []
        for i in 0...10 { sets.append(("set-f\(i)", ["v\(i)"])) }
        let id = try create("item", sets)
        _ = try create("item", p(("set-f0", "v0")))
        let q = "where " + (0...10).map { "f\($0)=?" }.joined(separator: " and ")
        let values = (0...10).map { "v\($0)" }
        let signed = api.signed("GET", "/data/item", [("q", [q]), ("params", values)])
        // Sent with [10] first: string order would bind it second.
        var parts = (0...10).reversed().map { "params[\($0)]=v\($0)" }
        for (name, vals) in signed where name != "params" {
            parts.append(BackbeamClient.escape(name, style: .ios) + "=" + BackbeamClient.escape(vals[0], style: .ios))
        }
        XCTAssertEqual(try api.raw("GET", "/data/item?" + parts.joined(separator: "&")).ids, [id])
    }

    func test_BB_017_plusIsASpace() throws {
        var c = api!
        c.style = .android
        let r = try c.send("POST", "/data/place", p(("set-name", "Bar Pepe")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["name#t"], .string("Bar Pepe"))
    }

    func test_BB_018_multipartBody() throws {
        var c = api!
        c.style = .node
        let r = try c.send("POST", "/data/place", p(("set-name", "Bar+Pepe")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["name#t"], .string("Bar+Pepe"), "multipart values are not form-decoded")
    }

    func test_BB_019_androidTunnelledDelete() throws {
        let id = try create("place", p(("set-name", "x")))
        var c = api!
        c.style = .android
        let r = try c.send("DELETE", "/data/place/\(id)")
        XCTAssertEqual(r.status, 200, r.text)
        assertError(try api.send("GET", "/data/place/\(id)"), 404, "ObjectNotFound")
    }

    func test_BB_020_junkMethodAndPathAreOverwritten() throws {
        var c = api!
        c.style = .browser
        let r = try c.send("POST", "/data/place", p(("set-name", "x"), ("method", "GET"), ("path", "/foo")))
        XCTAssertEqual(r.status, 201, r.text)
    }

    func test_BB_021_methodOverride() throws {
        assertError(try api.send("GET", "/data/place", p(("_method", "PATCH"))), 400, "InvalidParameters")
        let id = try create("place", p(("set-name", "x")))
        let r = try api.send("PUT", "/data/place/\(id)", p(("set-name", "y"), ("_method", "DELETE")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.main?["name#t"], .string("y"))
        XCTAssertEqual(try api.send("GET", "/data/place/\(id)").status, 200)
    }

    func test_BB_022_browserDeleteWithParametersTwice() throws {
        let id = try create("place", p(("set-name", "x")))
        var c = api!
        c.style = .browser
        let r = try c.send("DELETE", "/data/place/\(id)")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.id, id)
        assertError(try api.send("GET", "/data/place/\(id)"), 404, "ObjectNotFound")
    }

    func test_BB_023_malformedEscapesStoreNothing() throws {
        for bad in ["%zz", "%FF"] {
            let signed = api.signed("POST", "/data/place", [])
            var body = signed.map { BackbeamClient.escape($0.0, style: .ios) + "=" + BackbeamClient.escape($0.1[0], style: .ios) }
            body.append("set-name=" + bad)
            assertError(try api.raw("POST", "/data/place", body: body.joined(separator: "&")), 400, "InvalidParameters")
        }
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 0)
    }

    func test_BB_024_repeatedScalars() throws {
        assertError(try api.send("GET", "/data/place", [("key", ["a", "b"])]), 400, "InvalidParameters")
        assertError(try api.send("POST", "/data/place", [("set-name", ["a", "b"])]), 400, "InvalidParameters")
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 0)
    }

    func test_BB_025_unknownAndCacheBusterParameters() throws {
        let signed = api.signed("GET", "/data/place", p(("foo", "bar")))
        var parts = signed.map { BackbeamClient.escape($0.0, style: .ios) + "=" + BackbeamClient.escape($0.1[0], style: .ios) }
        parts.append("_=1397166331409")
        let r = try api.raw("GET", "/data/place?" + parts.joined(separator: "&"))
        XCTAssertEqual(r.status, 200, r.text)
    }
}
