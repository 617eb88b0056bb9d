import Core
import XCTest
@testable import BackbeamAPI

/// §4.1/§4.2 value forms shared by commands, BQL and the wire encoder.
final class FieldValuesTests: XCTestCase {
    func testNumbers() {
        // BB-045: the forms the SDKs send; integral results print without `.0`.
        for (text, value) in [("100", 100.0), ("3.5", 3.5), ("-2", -2), ("+2", 2), ("1.0E10", 1e10), ("5.", 5),
                              (".5", 0.5), ("0.000000", 0), ("4.0E-5", 0.00004), ("1e+2", 100)] {
            XCTAssertEqual(FieldValues.number(text), value, text)
        }
        for bad in ["", ".", "abc", "1e", "1e+", "--1", "1.2.3", " 1", "1 ", "0x10", "NaN", "Infinity", "1e400", "١"] {
            XCTAssertNil(FieldValues.number(bad), bad)
        }
        XCTAssertEqual(FieldValues.numberJSON("100")?.text, "100")
        XCTAssertEqual(FieldValues.numberJSON("1.0E10")?.text, "10000000000")
        XCTAssertEqual(FieldValues.numberJSON("3.50")?.text, "3.5")
    }

    func testDatesBooleansDays() {
        XCTAssertEqual(FieldValues.date("1368520407344"), 1_368_520_407_344)
        XCTAssertEqual(FieldValues.date("-1.9"), -1, "decimals truncate toward zero")
        XCTAssertEqual(FieldValues.date("8640000000000000"), 8_640_000_000_000_000)
        XCTAssertNil(FieldValues.date("8640000000000001"))
        XCTAssertNil(FieldValues.date("abc"))
        XCTAssertEqual(FieldValues.boolean("1"), true)
        XCTAssertEqual(FieldValues.boolean("False"), false)
        XCTAssertNil(FieldValues.boolean("maybe"))
        // BB-052.
        XCTAssertEqual(FieldValues.day("2014-05-01"), "2014-05-01")
        XCTAssertEqual(FieldValues.day("٢٠١٤-٠٥-٠١"), "2014-05-01")
        XCTAssertEqual(FieldValues.day("२०१४-०५-०१"), "2014-05-01")
        XCTAssertEqual(FieldValues.day("2016-02-29"), "2016-02-29")
        for bad in ["2014-02-30", "2015-02-29", "1900-02-29", "2014-13-01", "2014-00-10", "2014-5-01", "2014/05/01",
                    "2014-05-01 ", "abcd-ef-gh", "2014-04-31"] {
            XCTAssertNil(FieldValues.day(bad), bad)
        }
        XCTAssertEqual(FieldValues.day("2000-02-29"), "2000-02-29")
    }

    func testJSON() {
        // BB-053: embedded, depth at most 32.
        XCTAssertEqual(FieldValues.json("{\"a\":[1,2]}"), .object(JSONObject([("a", .array([.int(1), .int(2)]))])))
        XCTAssertNil(FieldValues.json("{"))
        XCTAssertNotNil(FieldValues.json(String(repeating: "[", count: 32) + String(repeating: "]", count: 32)))
        XCTAssertNil(FieldValues.json(String(repeating: "[", count: 40) + String(repeating: "]", count: 40)))
    }

    func testLocations() {
        // BB-054, BB-055.
        let ios = Location.parse("41.648823,-0.889085,0.000000|(null)")
        XCTAssertEqual(ios.map { JSON.object($0.json).serialized() },
                       #"{"lat":41.648823,"lon":-0.889085,"hash":"ezrkgvb"}"#)
        XCTAssertEqual(Location.parse("41.6488226,-0.8890853,0|Zaragoza")?.address, "Zaragoza")
        XCTAssertEqual(Location.parse("4.0E-5,1.0,0.0|").map { JSON.object($0.json).serialized() },
                       #"{"lat":0.00004,"lon":1,"hash":"s008nb0"}"#)
        XCTAssertNil(Location.parse("91,0|x"))
        XCTAssertNil(Location.parse("0,181"))
        XCTAssertNil(Location.parse("a,b|x"), "unreadable coordinates before a bar")
        XCTAssertEqual(Location.parse("Calle Mayor 1").map { JSON.object($0.json).serialized() }, #"{"addr":"Calle Mayor 1"}"#)
        XCTAssertEqual(Location.parse("|Zaragoza"), Location(coordinates: nil, address: "Zaragoza"))
        XCTAssertEqual(Location.parse("1,2,30|x").map { JSON.object($0.json).serialized() },
                       #"{"lat":1,"lon":2,"alt":30,"addr":"x","hash":"s01mtw0"}"#)
        XCTAssertNil(Location.parse(""))
        XCTAssertNil(Location.parse("|"))
    }

    func testGeohashVectors() {
        XCTAssertEqual(Geohash.encode(lat: 41.648823, lon: -0.889085), "ezrkgvb")
        XCTAssertEqual(Geohash.encode(lat: 57.64911, lon: 10.40744, length: 11), "u4pruydqqvj")
        XCTAssertEqual(Geohash.encode(lat: 0, lon: 0, length: 0), "")
    }

    func testIdentifiersAndSuffixes() {
        XCTAssertTrue(Identifiers.isEntityID("points-of-interest"))
        XCTAssertTrue(Identifiers.isEntityID("9lives"))
        XCTAssertFalse(Identifiers.isEntityID("-x"))
        XCTAssertFalse(Identifiers.isEntityID("bad$entity"))
        XCTAssertFalse(Identifiers.isEntityID(String(repeating: "a", count: 65)))
        XCTAssertTrue(Identifiers.isFieldID("last-event"))
        XCTAssertFalse(Identifiers.isFieldID("1st"))
        XCTAssertFalse(Identifiers.isFieldID("a b"))
        XCTAssertFalse(Identifiers.isFieldID(""))
        XCTAssertTrue(Identifiers.isObjectID("uDiuuGIMMQ4O"))
        XCTAssertFalse(Identifiers.isObjectID("bad$id"))
        XCTAssertTrue(Identifiers.isReservedFieldID("login_tw_id"))
        XCTAssertTrue(Identifiers.isReservedFieldID("created_at"))
        XCTAssertFalse(Identifiers.isReservedFieldID("type"))
        XCTAssertEqual(Identifiers.objectID(fromReference: "user/abc"), "abc")
        XCTAssertNil(Identifiers.objectID(fromReference: "user/a b"))
        XCTAssertEqual(FieldType.split("price#n")?.field, "price")
        XCTAssertEqual(FieldType.split("price#n")?.type, .number)
        XCTAssertEqual(FieldType.split("body#rt")?.type, .richText)
        XCTAssertNil(FieldType.split("price")?.type)
        XCTAssertNil(FieldType.split("price#x"))
    }
}
