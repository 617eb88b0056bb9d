import Foundation
import XCTest
@testable import Files

/// Header readings without decoding, on every fixture, checked against libvips' own reading.
final class ImageHeaderTests: XCTestCase {
    private struct Expected {
        let name: String
        let format: ImageFormat
        let stored: (Int, Int)
        let orientation: Int
    }

    private let decodable: [Expected] = [
        Expected(name: "photo-800x600.jpg", format: .jpeg, stored: (800, 600), orientation: 1),
        Expected(name: "orientation-1.jpg", format: .jpeg, stored: (80, 60), orientation: 1),
        Expected(name: "orientation-2.jpg", format: .jpeg, stored: (80, 60), orientation: 2),
        Expected(name: "orientation-3.jpg", format: .jpeg, stored: (80, 60), orientation: 3),
        Expected(name: "orientation-4.jpg", format: .jpeg, stored: (80, 60), orientation: 4),
        Expected(name: "orientation-5.jpg", format: .jpeg, stored: (60, 80), orientation: 5),
        Expected(name: "orientation-6.jpg", format: .jpeg, stored: (60, 80), orientation: 6),
        Expected(name: "orientation-7.jpg", format: .jpeg, stored: (60, 80), orientation: 7),
        Expected(name: "orientation-8.jpg", format: .jpeg, stored: (60, 80), orientation: 8),
        Expected(name: "orientation-6.png", format: .png, stored: (60, 80), orientation: 6),
        Expected(name: "quadrants.png", format: .png, stored: (64, 48), orientation: 1),
        Expected(name: "bands.png", format: .png, stored: (60, 120), orientation: 1),
        Expected(name: "wide.png", format: .png, stored: (5000, 1000), orientation: 1),
        Expected(name: "png-named.jpg", format: .png, stored: (40, 30), orientation: 1),
        Expected(name: "animated.gif", format: .gif, stored: (40, 30), orientation: 1),
        // Headers that are sound even though what follows is not, or is too big to decode.
        Expected(name: "truncated.jpg", format: .jpeg, stored: (800, 600), orientation: 1),
        Expected(name: "corrupt.png", format: .png, stored: (40, 30), orientation: 1),
        Expected(name: "bomb.png", format: .png, stored: (100_000, 100_000), orientation: 1),
        Expected(name: "bomb-50000.png", format: .png, stored: (50_000, 50_000), orientation: 1),
        Expected(name: "bomb.gif", format: .gif, stored: (65535, 65535), orientation: 1),
        Expected(name: "huge-dimensions.jpg", format: .jpeg, stored: (65500, 65500), orientation: 1),
    ]

    func testFixtureHeaders() throws {
        for item in decodable {
            let header = try XCTUnwrap(ImageHeader.read(path: Fixtures.path(item.name)), item.name)
            XCTAssertEqual(header.format, item.format, item.name)
            XCTAssertEqual(header.storedWidth, item.stored.0, item.name)
            XCTAssertEqual(header.storedHeight, item.stored.1, item.name)
            XCTAssertEqual(header.orientation, item.orientation, item.name)
            // Upright size: quarter turns swap the sides.
            let swapped = item.orientation >= 5
            XCTAssertEqual(header.width, swapped ? item.stored.1 : item.stored.0, item.name)
            XCTAssertEqual(header.height, swapped ? item.stored.0 : item.stored.1, item.name)
            // The same bytes from memory read the same.
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.path(item.name)))
            XCTAssertEqual(ImageHeader.parse(Array(bytes)), header, item.name)
        }
    }

    /// libvips reads the same size and orientation (the render refuses to go on otherwise).
    func testReadingsAgreeWithLibvips() throws {
        for item in decodable where !["truncated.jpg", "huge-dimensions.jpg"].contains(item.name) {
            let ours = try XCTUnwrap(ImageHeader.read(path: Fixtures.path(item.name)))
            let theirs = try XCTUnwrap(Vips.header(path: Fixtures.path(item.name), format: ours.format), item.name)
            XCTAssertEqual(theirs.width, ours.storedWidth, item.name)
            XCTAssertEqual(theirs.height, ours.storedHeight, item.name)
            XCTAssertEqual(theirs.orientation, ours.orientation, item.name)
        }
    }

    func testNonImagesHaveNoHeader() {
        XCTAssertNil(ImageHeader.read(path: Fixtures.path("not-an-image.pdf")))
        XCTAssertNil(ImageHeader.read(path: Fixtures.path("does-not-exist.jpg")))
        XCTAssertNil(ImageHeader.parse([]))
        XCTAssertNil(ImageHeader.parse(Array("GIF89a".utf8)))
        XCTAssertNil(ImageHeader.parse([0xFF, 0xD8, 0xFF]))
        XCTAssertNil(ImageHeader.parse(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)))
    }

    /// GIF canvases follow libnsgif: implausible logical screens count as 1x1, the first frame grows it.
    func testGIFCanvasRules() throws {
        func gif(screen: (Int, Int), frame: (Int, Int, Int, Int)) -> [UInt8] {
            func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
            var bytes = Array("GIF89a".utf8) + le(screen.0) + le(screen.1) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            bytes += [0x21, 0xF9, 4, 0, 0, 0, 0, 0]                      // a graphic control extension
            bytes += [0x2C] + le(frame.0) + le(frame.1) + le(frame.2) + le(frame.3) + [0]
            bytes += [2, 2, 0x4C, 0x01, 0, 0x3B]
            return bytes
        }
        let cases: [((Int, Int), (Int, Int, Int, Int), (Int, Int), UInt)] = [
            ((40, 30), (0, 0, 40, 30), (40, 30), #line),
            ((10, 10), (0, 0, 50, 40), (50, 40), #line),
            ((10, 10), (20, 30, 10, 10), (30, 40), #line),
            ((800, 600), (0, 0, 50, 40), (50, 40), #line),
            ((640, 480), (0, 0, 5, 5), (5, 5), #line),
            ((3000, 100), (0, 0, 10, 10), (10, 10), #line),
            ((2048, 2048), (0, 0, 10, 10), (2048, 2048), #line),
            ((0, 0), (0, 0, 7, 9), (7, 9), #line),
        ]
        for (screen, frame, expected, line) in cases {
            let header = try XCTUnwrap(ImageHeader.parse(gif(screen: screen, frame: frame)), line: line)
            XCTAssertEqual(header.storedWidth, expected.0, line: line)
            XCTAssertEqual(header.storedHeight, expected.1, line: line)
            // And libvips agrees.
            let path = try writeFile(gif(screen: screen, frame: frame), in: makeTemporaryDirectory(self))
            let vips = try XCTUnwrap(Vips.header(path: path, format: .gif), line: line)
            XCTAssertEqual(vips.width, expected.0, line: line)
            XCTAssertEqual(vips.height, expected.1, line: line)
        }
    }

    func testEXIFOrientationReading() {
        func tiff(_ orientation: Int, little: Bool, type: Int = 3) -> [UInt8] {
            func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
            func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
            let head: [UInt8] = little ? [0x49, 0x49, 0x2A, 0] : [0x4D, 0x4D, 0, 0x2A]
            // IFD0 with an unrelated entry first, then Orientation.
            return head + u32(8) + u16(2) + u16(0x010F) + u16(2) + u32(4) + u32(0) +
                u16(0x0112) + u16(type) + u32(1) + u16(orientation) + u16(0) + u32(0)
        }
        for orientation in 1...8 {
            XCTAssertEqual(EXIFOrientation.read(tiff: tiff(orientation, little: true)), orientation)
            XCTAssertEqual(EXIFOrientation.read(tiff: tiff(orientation, little: false)), orientation)
            XCTAssertEqual(EXIFOrientation.read(tiff: Array("Exif\0\0".utf8) + tiff(orientation, little: false)), orientation)
        }
        // Out-of-range values are clamped as decoders clamp them.
        XCTAssertEqual(EXIFOrientation.read(tiff: tiff(0, little: true)), 1)
        XCTAssertEqual(EXIFOrientation.read(tiff: tiff(9, little: true)), 8)
        XCTAssertEqual(EXIFOrientation.read(tiff: tiff(65535, little: false)), 8)
        XCTAssertNil(EXIFOrientation.read(tiff: tiff(6, little: true, type: 4)))
        XCTAssertNil(EXIFOrientation.read(tiff: []))
        XCTAssertNil(EXIFOrientation.read(tiff: Array("XX*\0\0\0\0\u{8}".utf8)))
        var pointingAway = tiff(6, little: true)
        pointingAway[4] = 0xFF                                       // IFD0 offset past the end
        XCTAssertNil(EXIFOrientation.read(tiff: pointingAway))
    }

    /// Every prefix and random corruption of every fixture parses without trapping, and whatever it
    /// reports is in range.
    func testTruncatedAndMutatedHeadersNeverTrap() throws {
        var generator = SystemRandomNumberGenerator()
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory).filter { !$0.hasSuffix(".py") }
        for name in names {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.path(name)).map(Array.init))
            for length in stride(from: 0, through: min(bytes.count, 2048), by: 1) {
                check(ImageHeader.parse(Array(bytes.prefix(length))))
            }
            for _ in 0..<300 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...8, using: &generator) where !mutated.isEmpty {
                    let index = Int.random(in: 0..<min(mutated.count, 512), using: &generator)
                    mutated[index] = UInt8.random(in: 0...255, using: &generator)
                }
                check(ImageHeader.parse(mutated))
            }
        }
    }

    private func check(_ header: ImageHeader?) {
        guard let header else { return }
        XCTAssertTrue(header.storedWidth > 0 && header.storedHeight > 0)
        XCTAssertTrue(header.storedWidth <= Int(Int32.max) && header.storedHeight <= Int(Int32.max))
        XCTAssertTrue((1...8).contains(header.orientation))
    }
}
