import Foundation
import XCTest
import Core

/// Geo queries (BB-089 … BB-092) and remove by query (BB-093, BB-094).
final class BackbeamGeoAndRemoveTests: BackbeamTestCase {
    /// Places around Zaragoza, one address-only, one across the antimeridian on each side.
    private func seedPlaces() throws -> [String: String] {
        var ids: [String: String] = [:]
        for (name, loc) in [("center", "41.65,-0.88,0|Zaragoza"), ("near", "41.66,-0.89,0|"), ("far", "40.4168,-3.7038,0|Madrid"),
                            ("addressOnly", "Calle Mayor 1"), ("east", "10,175,0|Fiji"), ("west", "10,-175,0|Samoa")] {
            ids[name] = try create("place", [("set-name", [name]), ("set-location#l", [loc])])
        }
        return ids
    }

    func test_BB_089_nearWithDistances() throws {
        let ids = try seedPlaces()
        let r = try api.send("GET", "/data/place/near/location", p(("lat", "41.65"), ("lon", "-0.88"), ("limit", "10")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(Array(r.ids.prefix(3)), [ids["center"], ids["near"], ids["far"]].compactMap { $0 })
        XCTAssertEqual(Set(r.ids.dropFirst(3)), Set([ids["east"], ids["west"]].compactMap { $0 }))
        let distances = r.json["distances"]?.arrayValue ?? []
        XCTAssertEqual(distances.count, r.ids.count)
        XCTAssertTrue(distances.allSatisfy { $0.numberValue?.isInteger == true }, r.text)
        XCTAssertEqual(distances.first?.int64Value, 0)
        // Nearest first: the distances never decrease, and match the places (Zaragoza to Madrid is about 270 km).
        let metres = distances.compactMap(\.int64Value)
        XCTAssertEqual(metres, metres.sorted(), r.text)
        XCTAssertEqual(metres.count, 5)
        if metres.count == 5 {
            XCTAssertTrue((500...2_500).contains(metres[1]), "near: \(metres[1]) m")
            XCTAssertTrue((250_000...290_000).contains(metres[2]), "Madrid: \(metres[2]) m")
            XCTAssertGreaterThan(metres[3], 12_000_000, "the Pacific")
        }
        XCTAssertEqual(r["count"]?.int64Value, 5)
        XCTAssertFalse(r.ids.contains(ids["addressOnly"] ?? "-"))
    }

    func test_BB_090_legacyNearForm() throws {
        _ = try seedPlaces()
        let path = try api.send("GET", "/data/place/near/location", p(("lat", "41.65"), ("lon", "-0.88"), ("limit", "10")))
        let legacy = try api.send("GET", "/data/place/near", p(("near", "location"), ("lat", "41.65"), ("lon", "-0.88"), ("limit", "10")))
        XCTAssertEqual(legacy.status, 200, legacy.text)
        XCTAssertEqual(legacy.text, path.text)
    }

    func test_BB_091_nearErrors() throws {
        let ids = try seedPlaces()
        assertError(try api.send("GET", "/data/place/near/location", p(("lat", "91"), ("lon", "0"))), 400, "InvalidParameters")
        assertError(try api.send("GET", "/data/place/near/location", p(("lon", "0"))), 400, "InvalidParameters")
        assertError(try api.send("GET", "/data/place/near/name", p(("lat", "1"), ("lon", "0"))), 400, "InvalidQuery")
        let all = try api.send("GET", "/data/place/bounding/location", p(("swlat", "-90"), ("swlon", "-180"), ("nelat", "90"), ("nelon", "180")))
        XCTAssertEqual(all["count"]?.int64Value, 5)
        XCTAssertFalse(all.ids.contains(ids["addressOnly"] ?? "-"))
    }

    func test_BB_092_boundingBoxes() throws {
        let ids = try seedPlaces()
        let box = try api.send("GET", "/data/place/bounding/location",
                               p(("swlat", "41"), ("swlon", "-1"), ("nelat", "42"), ("nelon", "0")))
        XCTAssertEqual(box.status, 200, box.text)
        XCTAssertEqual(Set(box.ids), Set([ids["center"], ids["near"]].compactMap { $0 }))
        XCTAssertEqual(box["count"]?.int64Value, 2)
        let across = try api.send("GET", "/data/place/bounding/location",
                                  p(("swlat", "0"), ("swlon", "170"), ("nelat", "20"), ("nelon", "-170")))
        XCTAssertEqual(Set(across.ids), Set([ids["east"], ids["west"]].compactMap { $0 }))
        let legacy = try api.send("GET", "/data/place/bounding",
                                  p(("bounding", "location"), ("swlat", "41"), ("swlon", "-1"), ("nelat", "42"), ("nelon", "0")))
        XCTAssertEqual(legacy.text, box.text)
    }

    func test_BB_093_removeByQuery() throws {
        var heavy: [String] = []
        for w in [1, 2, 4, 5, 6] {
            let id = try create("item", p(("set-weight", String(w))))
            if w > 3 { heavy.append(id) }
        }
        let r = try api.send("DELETE", "/data/item", [("q", ["where weight>?"]), ("params", ["3"]), ("limit", ["10"]), ("offset", ["0"])])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.text, "{\"status\":\"Success\",\"removed\":3,\"count\":3}")
        for id in heavy { assertError(try api.send("GET", "/data/item/\(id)"), 404, "ObjectNotFound") }
        XCTAssertEqual(try api.send("GET", "/data/item")["count"]?.int64Value, 2)
    }

    func test_BB_094_removeAllForms() throws {
        let forms: [(SDKStyle, [(String, [String])])] = [
            (.browser, [("limit", ["all"]), ("offset", ["0"])]),
            (.android, [("limit", ["all"])]),
            (.ios, [("limit", ["4345298816"]), ("offset", ["0"])]),
        ]
        for (style, window) in forms {
            for w in [5, 6, 7] { try create("item", p(("set-weight", String(w)))) }
            var c = api!
            c.style = style
            let r = try c.send("DELETE", "/data/item", [("q", ["where weight>?"]), ("params", ["3"])] + window)
            XCTAssertEqual(r.status, 200, "\(style): \(r.text)")
            XCTAssertEqual(r["removed"]?.int64Value, 3, "\(style)")
            XCTAssertEqual(try api.send("GET", "/data/item")["count"]?.int64Value, 0)
        }
    }
}
