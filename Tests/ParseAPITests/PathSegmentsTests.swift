import XCTest
@testable import ParseAPI

/// Splitting a request path below the mount into decoded segments (spec §1.3's routing input).
final class PathSegmentsTests: XCTestCase {
    func testSplitsDecodesAndRefuses() {
        let cases: [(String, String, [String]?)] = [
            ("/parse/classes/Recipe/Ab3dE5gH9k", "/parse", ["classes", "Recipe", "Ab3dE5gH9k"]),
            ("/parse", "/parse", []),
            ("/parse/", "/parse", []),
            ("/parse//classes///Recipe/", "/parse", ["classes", "Recipe"]),
            ("/parsely/classes", "/parse", nil),
            ("/other/classes", "/parse", nil),
            ("/par", "/parse", nil),
            ("/parse/files/a%2Fb.txt", "/parse", ["files", "a/b.txt"]),
            ("/parse/classes/caf%C3%A9", "/parse", ["classes", "café"]),
            ("/parse/classes/café", "/parse", ["classes", "café"]),
            ("/parse/classes/bad%zz", "/parse", nil),
            ("/parse/classes/nul%00", "/parse", nil),
            ("/parse/classes/nul\0x", "/parse", nil),
            ("/classes/A", "", ["classes", "A"]),
            ("classes/A", "", nil),
        ]
        for (path, mount, expected) in cases {
            XCTAssertEqual(ParseApp.segments(rawPath: path, mount: mount), expected, "\(path) under \(mount)")
        }
    }
}
