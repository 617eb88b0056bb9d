import XCTest
import Core
@testable import App

/// `check-config` masks secrets nested inside API sections (Backbeam key pairs).
final class NestedSecretMaskingTests: XCTestCase {
    func testBackbeamSecretsAreMaskedAtAnyDepth() throws {
        let tree = try XCTUnwrap(try JSONParser.parse("""
            {"backbeam":{"projects":{"demo":{"dev":{"keys":[{"key":"dev_k","secret":"dev_s3cret"}]}}},"maxLimit":1000}}
            """).objectValue)
        let text = JSON.object(ConfigPrinter.masked(tree)).serialized()
        XCTAssertFalse(text.contains("dev_s3cret"), text)
        XCTAssertTrue(text.contains(#""maxLimit":1000"#), text)
        XCTAssertTrue(text.contains("********"), text)
    }

    func testTheShippedBackbeamSectionIsValid() throws {
        let shipped = try ConfigLoader.readFile(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Config/quartet.json").path)
        let config = try QuartetConfiguration(tree: shipped)
        XCTAssertNotNil(config.section("backbeam")["nonceCacheCapacity"])
    }
}
