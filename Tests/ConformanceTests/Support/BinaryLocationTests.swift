import XCTest

final class BinaryLocationTests: XCTestCase {
    func testQuartetBinaryIsBuilt() {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: BinaryLocation.quartet.path))
    }
}
