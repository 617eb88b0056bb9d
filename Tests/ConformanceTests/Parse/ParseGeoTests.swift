import XCTest
import Core

/// Geo queries (spec §7.7).
final class ParseGeoTests: ParseConformanceCase {
    func gp(_ lat: Double, _ lng: Double) -> String { #"{"__type":"GeoPoint","latitude":\#(lat),"longitude":\#(lng)}"# }

    func names(_ query: String) throws -> [String] {
        try (parse.expect(200, "GET", "/parse/classes/Place?\(query)")["results"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Oslo, Stockholm, Copenhagen, Rome
        for (n, lat, lng) in [("Oslo", 59.91, 10.75), ("Stockholm", 59.33, 18.07), ("Copenhagen", 55.68, 12.57), ("Rome", 41.9, 12.5)] {
            _ = try parse.create("Place", #"{"name":"\#(n)","loc":\#(gp(lat, lng))}"#)
        }
    }

    func test_PA_084_near_sphere() throws {
        let near = "where=" + q(#"{"loc":{"$nearSphere":\#(gp(59.9, 10.7))}}"#)
        XCTAssertEqual(try names(near), ["Oslo", "Stockholm", "Copenhagen", "Rome"])
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$nearSphere":\#(gp(59.9, 10.7)),"$maxDistanceInKilometers":450}}"#)),
                       ["Oslo", "Stockholm"])
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$nearSphere":\#(gp(59.9, 10.7)),"$maxDistanceInMiles":10}}"#)), ["Oslo"])
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$nearSphere":\#(gp(59.9, 10.7)),"$maxDistance":0.1}}"#)),
                       ["Oslo", "Stockholm", "Copenhagen"])
        XCTAssertEqual(try names(near + "&order=name"), ["Copenhagen", "Oslo", "Rome", "Stockholm"])
        let c = try parse.expect(200, "GET", "/parse/classes/Place?count=1&limit=0&where="
                                 + q(#"{"loc":{"$nearSphere":\#(gp(59.9, 10.7)),"$maxDistanceInKilometers":450}}"#))
        XCTAssertEqual(c["count"], 2)
    }

    func test_PA_085_within_box() throws {
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$within":{"$box":[\#(gp(55, 10)),\#(gp(60, 13))]}}}"#)), ["Oslo", "Copenhagen"])
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$within":{"$box":[\#(gp(59.91, 10.75)),\#(gp(60, 11))]}}}"#)), ["Oslo"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Place?where=" + q(#"{"loc":{"$within":{"$box":[\#(gp(55, 10))]}}}"#)),
                       ["code": 107, "error": "malformatted $within arg"])
    }

    func test_PA_086_geo_within() throws {
        let poly = #"[\#(gp(50, 5)),\#(gp(62, 5)),\#(gp(62, 15)),\#(gp(50, 15))]"#
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$geoWithin":{"$polygon":\#(poly)}}}"#)), ["Oslo", "Copenhagen"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Place?where=" + q(#"{"loc":{"$geoWithin":{"$polygon":[\#(gp(1, 1)),\#(gp(2, 2))]}}}"#)),
                       ["code": 107, "error": "bad $geoWithin value; $polygon should contain at least 3 GeoPoints"])
        XCTAssertEqual(try names("where=" + q(#"{"loc":{"$geoWithin":{"$centerSphere":[\#(gp(59.9, 10.7)),0.01]}}}"#)), ["Oslo"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Place?where=" + q(#"{"loc":{"$geoWithin":{"$centerSphere":[\#(gp(59.9, 10.7)),-1]}}}"#)),
                       ["code": 107, "error": "bad $geoWithin value; $centerSphere distance invalid"])
    }

    func test_PA_087_geo_intersects() throws {
        _ = try parse.create("Area", #"{"n":"square","shape":{"__type":"Polygon","coordinates":[[0,0],[0,10],[10,10],[10,0]]}}"#)
        _ = try parse.create("Area", #"{"n":"far","shape":{"__type":"Polygon","coordinates":[[50,50],[50,60],[60,60]]}}"#)
        let r = try parse.expect(200, "GET", "/parse/classes/Area?where=" + q(#"{"shape":{"$geoIntersects":{"$point":\#(gp(5, 5))}}}"#))
        XCTAssertEqual(r["results"]?.arrayValue?.compactMap { $0["n"]?.stringValue }, ["square"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Area?where=" + q(#"{"shape":{"$geoIntersects":{"$point":"x"}}}"#)),
                       ["code": 107, "error": "bad $geoIntersect value; $point should be GeoPoint"])
    }
}
