import XCTest
@testable import DatastoreAPI

final class DatastoreDefaultsTests: XCTestCase {
    func testBothPrefixes() { XCTAssertEqual(DatastoreDefaults.prefixes, ["/1/datastores", "/r5/datastores"]) }
}
