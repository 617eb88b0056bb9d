import XCTest
import Core
@testable import BackbeamAPI

/// The `backbeam` configuration section (§10).
final class ConfigUnitTests: XCTestCase {
    private func parse(_ json: String) throws -> BackbeamConfig {
        try BackbeamConfig(try XCTUnwrap(try JSONParser.parse(json).objectValue))
    }

    func testDefaults() throws {
        let c = try parse("{}")
        XCTAssertTrue(c.enabled)
        XCTAssertEqual(c.signatureWindowSeconds, 300)
        XCTAssertEqual(c.maxLimit, 1000)
        XCTAssertEqual(c.maxBodyBytes, 8 << 20)
        XCTAssertEqual(c.maxRequestTargetBytes, 16 << 10)
        XCTAssertEqual(c.nonceCacheCapacity, 2_000_000)
        XCTAssertEqual(c.queryPlanCacheSize, 256)
        XCTAssertEqual(try parse("{\"queryPlanCacheSize\":0}").queryPlanCacheSize, 0, "0 turns the cache off")
        XCTAssertEqual(try parse("{\"queryPlanCacheSize\":5000}").queryPlanCacheSize, 5000)
        XCTAssertEqual(c.countCacheSize, 4096)
        XCTAssertEqual(try parse("{\"countCacheSize\":0}").countCacheSize, 0, "0 counts every time")
        XCTAssertEqual(try parse("{\"countCacheSize\":100000}").countCacheSize, 100_000)
        XCTAssertNil(c.defaultProject)
    }

    func testProjectsKeysIndexesAndSchema() throws {
        let c = try parse("""
            {"projects":{"demo":{"dev":{"keys":[{"key":"k","secret":"s"}],"indexes":["place.cat"]},
             "schema":{"strict":true,"entities":{"place":{"fields":{"name":"t",
               "author":{"type":"r","to":"user"},"tags":{"type":"r","to":"tag","many":true},"kind":{"type":"s","options":["a","b"]}}}}}}}}
            """)
        let demo = try XCTUnwrap(c.projects["demo"])
        XCTAssertEqual(demo.keys[.dev], [KeyPair(key: "k", secret: "s")])
        XCTAssertEqual(demo.indexes[.dev]?.map { "\($0.entity).\($0.field)" }, ["place.cat"])
        XCTAssertEqual(demo.schema?.strict, true)
        XCTAssertEqual(demo.schema?.field("author", of: "place"), SchemaField(type: .reference, target: "user"))
        XCTAssertEqual(demo.schema?.field("tags", of: "place")?.many, true)
        XCTAssertEqual(demo.schema?.field("kind", of: "place")?.options, ["a", "b"])
    }

    func testInvalidValuesNameTheKey() {
        let cases: [(String, String)] = [
            ("{\"unknown\":1}", "backbeam.unknown"),
            ("{\"projects\":{\"Bad_Name\":{}}}", "backbeam.projects"),
            ("{\"projects\":{\"demo\":{\"dev\":{\"keys\":[{\"key\":\"has space\",\"secret\":\"s\"}]}}}}", "backbeam.projects.demo.dev.keys"),
            ("{\"projects\":{\"demo\":{\"dev\":{\"indexes\":[\"nodot\"]}}}}", "backbeam.projects.demo.dev.indexes"),
            ("{\"defaultProject\":\"demo\"}", "backbeam.defaultEnv"),
            ("{\"defaultEnv\":\"test\"}", "backbeam.defaultEnv"),
            ("{\"maxLimit\":0}", "backbeam.maxLimit"),
            ("{\"queryPlanCacheSize\":-1}", "backbeam.queryPlanCacheSize"),
            ("{\"countCacheSize\":-1}", "backbeam.countCacheSize"),
            ("{\"countCacheSize\":2000000}", "backbeam.countCacheSize"),
            ("{\"projects\":{\"demo\":{\"schema\":{\"entities\":{\"p\":{\"fields\":{\"x\":\"zz\"}}}}}}}", "backbeam.projects.demo.schema.entities.p.fields.x"),
        ]
        for (json, key) in cases {
            XCTAssertThrowsError(try parse(json), json) { error in
                XCTAssertTrue("\(error)".contains(key), "\(error) does not name \(key)")
            }
        }
    }

    func testProjectNameRule() {
        for good in ["a", "demo", "my-app", "a1", String(repeating: "a", count: 50)] {
            XCTAssertTrue(BackbeamConfig.isValidProjectName(good), good)
        }
        for bad in ["", "-a", "a-", "A", "a_b", "a.b", String(repeating: "a", count: 51)] {
            XCTAssertFalse(BackbeamConfig.isValidProjectName(bad), bad)
        }
    }

    func testGeneratedKeysHaveThePublishedShape() {
        let pair = KeyPair.generate(for: .dev)
        XCTAssertNotNil(pair.key.range(of: "^dev_[0-9a-f]{40}$", options: .regularExpression))
        XCTAssertNotNil(pair.secret.range(of: "^dev_[0-9a-f]{80}$", options: .regularExpression))
        XCTAssertNotEqual(KeyPair.generate(for: .pro).key, KeyPair.generate(for: .pro).key)
    }
}
