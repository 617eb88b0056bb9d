import XCTest
@testable import App

final class AppInfoTests: XCTestCase {
    func testBannerNamesProduct() { XCTAssertTrue(AppInfo.banner.hasPrefix("Quartet ")) }
}
