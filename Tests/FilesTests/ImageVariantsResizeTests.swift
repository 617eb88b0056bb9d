import Foundation
import XCTest
@testable import Files

/// Real resizes of the fixtures through libvips: sizes, formats, orientation, crops and GIF frames
/// (checklist BB-109 ... BB-113, BB-116).
final class ImageVariantsResizeTests: XCTestCase {
    private var variants: ImageVariants!

    override func setUpWithError() throws {
        variants = try makeVariants(self)
    }

    func testFitSizesOfAnEightHundredBySixHundredJPEG() throws {
        let photo = Fixtures.path("photo-800x600.jpg")
        let cases: [(String?, String?, Int, Int, UInt)] = [
            ("200", "200", 200, 150, #line), ("200", nil, 200, 150, #line), (nil, "300", 400, 300, #line),
            ("799", nil, 799, 599, #line), ("1", "1", 1, 1, #line), ("100", "10", 13, 10, #line),
        ]
        for (width, height, w, h, line) in cases {
            let info = try XCTUnwrap(inspect(try variants.variant(of: photo, width: width, height: height)), line: line)
            XCTAssertEqual(info.format, .jpeg, line: line)
            XCTAssertEqual(info.width, w, line: line)
            XCTAssertEqual(info.height, h, line: line)
        }
        // The quadrants survive the resize in place.
        let info = try XCTUnwrap(inspect(try variants.variant(of: photo, width: "200")))
        XCTAssertEqual(colour(at: 20, 20, of: info.path, format: .jpeg), "red")
        XCTAssertEqual(colour(at: 180, 20, of: info.path, format: .jpeg), "green")
        XCTAssertEqual(colour(at: 20, 130, of: info.path, format: .jpeg), "blue")
        XCTAssertEqual(colour(at: 180, 130, of: info.path, format: .jpeg), "yellow")
    }

    func testNoUpscalingAndInvalidSizesServeTheOriginal() throws {
        let photo = Fixtures.path("photo-800x600.jpg")
        XCTAssertEqual(try variants.variant(of: photo, width: "2000", height: "2000"), .original)
        XCTAssertEqual(try variants.variant(of: photo, width: "abc", height: "-5"), .original)
        XCTAssertEqual(try variants.variant(of: photo, width: "800", height: "600"), .original)
        XCTAssertEqual(try variants.variant(of: photo), .original)
        XCTAssertEqual(variants.cachedCount, 0)
    }

    func testClampedWidePNG() throws {
        let info = try XCTUnwrap(inspect(try variants.variant(of: Fixtures.path("wide.png"), width: "100000")))
        XCTAssertEqual(info.format, .png)
        XCTAssertEqual(info.width, 4096)
        XCTAssertEqual(info.height, 819)
    }

    func testEveryEXIFOrientationIsAppliedFirst() throws {
        for orientation in 1...8 {
            let source = Fixtures.path("orientation-\(orientation).jpg")
            // Stored 60x80 for 5...8, but upright 80x60 always: width=40 gives 40x30.
            let info = try XCTUnwrap(inspect(try variants.variant(of: source, file: "o\(orientation)", width: "40")))
            XCTAssertEqual(info.width, 40, "orientation \(orientation)")
            XCTAssertEqual(info.height, 30, "orientation \(orientation)")
            let corners = [(5, 5), (34, 5), (5, 24), (34, 24)].map { colour(at: $0.0, $0.1, of: info.path, format: .jpeg) }
            XCTAssertEqual(corners, ["red", "green", "blue", "yellow"], "orientation \(orientation)")
        }
        // Sizes are upright sizes: 30 wide from the 80x60 upright picture stored as 60x80 is 30x23
        // (22.5 rounds away from zero).
        let turned = try XCTUnwrap(inspect(try variants.variant(of: Fixtures.path("orientation-6.jpg"), file: "o6b", width: "30")))
        XCTAssertEqual([turned.width, turned.height], [30, 23])
    }

    func testOrientationInAPNG() throws {
        let info = try XCTUnwrap(inspect(try variants.variant(of: Fixtures.path("orientation-6.png"), width: "40")))
        XCTAssertEqual(info.format, .png)
        XCTAssertEqual([info.width, info.height], [40, 30])
        XCTAssertEqual(colour(at: 5, 5, of: info.path, format: .png), "red")
        XCTAssertEqual(colour(at: 34, 24, of: info.path, format: .png), "yellow")
    }

    func testPNGWithAlphaStaysPNG() throws {
        let info = try XCTUnwrap(inspect(try variants.variant(of: Fixtures.path("quadrants.png"), width: "32")))
        XCTAssertEqual(info.format, .png)
        XCTAssertEqual([info.width, info.height], [32, 24])
        let pixel = try XCTUnwrap(Vips.pixel(path: info.path, format: .png, x: 4, y: 4))
        XCTAssertEqual(pixel.count, 4, "alpha kept")
    }

    func testAnimatedGIFGivesItsFirstFrameAsASingleFrameGIF() throws {
        let result = try variants.variant(of: Fixtures.path("animated.gif"), width: "20")
        let info = try XCTUnwrap(inspect(result))
        XCTAssertEqual(info.format, .gif)
        XCTAssertEqual([info.width, info.height], [20, 15])
        XCTAssertEqual(info.pages, 1)
        XCTAssertEqual(colour(at: 10, 7, of: info.path, format: .gif), "red", "the first frame is red, the second blue")
        guard case .variant(_, _, let mime) = result else { return XCTFail() }
        XCTAssertEqual(mime, "image/gif")
    }

    func testWrongExtensionIsReadByItsBytes() throws {
        let result = try variants.variant(of: Fixtures.path("png-named.jpg"), width: "20")
        let info = try XCTUnwrap(inspect(result))
        XCTAssertEqual(info.format, .png)
        guard case .variant(_, _, let mime) = result else { return XCTFail() }
        XCTAssertEqual(mime, "image/png")
        XCTAssertEqual([info.width, info.height], [20, 15])
    }

    func testNonImagesServeTheOriginal() throws {
        XCTAssertEqual(try variants.variant(of: Fixtures.path("not-an-image.pdf"), width: "50"), .original)
        XCTAssertEqual(try variants.variant(of: Fixtures.path("missing.jpg"), width: "50"), .original)
    }

    func testThumbCropsAndFits() throws {
        let photo = Fixtures.path("photo-800x600.jpg")
        let sizes: [(String, Int, Int, UInt)] = [
            ("100x100", 100, 100, #line), ("100x100t", 100, 100, #line), ("100x100b", 100, 100, #line),
            ("100x100f", 100, 75, #line), ("0x300", 400, 300, #line), ("100x0", 100, 75, #line),
            ("1000x500", 1000, 500, #line), ("0x1200", 1600, 1200, #line),
        ]
        for (thumb, w, h, line) in sizes {
            let info = try XCTUnwrap(inspect(try variants.variant(of: photo, thumb: thumb)), line: line)
            XCTAssertEqual([info.width, info.height], [w, h], thumb, line: line)
        }
        XCTAssertEqual(try variants.variant(of: photo, thumb: "0x0"), .original)
        XCTAssertEqual(try variants.variant(of: photo, thumb: "100x100z"), .original)
    }

    func testCoverAnchorsOnAPortraitPicture() throws {
        // bands.png is 60x120: red rows 0-29, green 30-89, blue 90-119. 60x60 covers without scaling.
        let bands = Fixtures.path("bands.png")
        let top = try XCTUnwrap(inspect(try variants.variant(of: bands, thumb: "60x60t")))
        XCTAssertEqual(colour(at: 30, 2, of: top.path, format: .png), "red")
        XCTAssertEqual(colour(at: 30, 57, of: top.path, format: .png), "green")
        let centre = try XCTUnwrap(inspect(try variants.variant(of: bands, thumb: "60x60")))
        XCTAssertEqual(colour(at: 30, 2, of: centre.path, format: .png), "green")
        XCTAssertEqual(colour(at: 30, 57, of: centre.path, format: .png), "green")
        let bottom = try XCTUnwrap(inspect(try variants.variant(of: bands, thumb: "60x60b")))
        XCTAssertEqual(colour(at: 30, 2, of: bottom.path, format: .png), "green")
        XCTAssertEqual(colour(at: 30, 57, of: bottom.path, format: .png), "blue")
        // An upscaling cover with the bottom anchor: 90x90 of the 90x180 enlargement.
        let up = try XCTUnwrap(inspect(try variants.variant(of: bands, thumb: "90x90b")))
        XCTAssertEqual([up.width, up.height], [90, 90])
        XCTAssertEqual(colour(at: 45, 85, of: up.path, format: .png), "blue")
    }

    func testCoverOnALandscapePictureIsCentredWhateverTheAnchor() throws {
        // photo is 800x600: a square crop cuts columns; t and b keep it centred, so the middle column
        // splits red/green at the top for every anchor.
        for thumb in ["100x100", "100x100t", "100x100b"] {
            let info = try XCTUnwrap(inspect(try variants.variant(of: Fixtures.path("photo-800x600.jpg"), thumb: thumb)))
            XCTAssertEqual(colour(at: 10, 10, of: info.path, format: .jpeg), "red", thumb)
            XCTAssertEqual(colour(at: 90, 10, of: info.path, format: .jpeg), "green", thumb)
            XCTAssertEqual(colour(at: 10, 90, of: info.path, format: .jpeg), "blue", thumb)
        }
    }

    func testVariantsAreCachedAndServedAgainWithoutDecoding() throws {
        let counting = CountingRenderer()
        let cached = try makeVariants(self, renderer: counting)
        let photo = Fixtures.path("photo-800x600.jpg")
        let first = try cached.variant(of: photo, width: "200")
        let second = try cached.variant(of: photo, width: "200")
        XCTAssertEqual(first, second)
        XCTAssertEqual(counting.count, 1)
        XCTAssertEqual(cached.statistics.hits, 1)
        // Another version of the file is another variant.
        _ = try cached.variant(of: photo, version: 2, width: "200")
        XCTAssertEqual(counting.count, 2)
    }

    func testJPEGQualityIsEightyFive() throws {
        // Quality 85 against quality 40 of the same resize: the spec's setting gives the larger file.
        let dir = try makeTemporaryDirectory(self)
        let high = try ImageVariants(configuration: .init(directory: dir + "/a"), logger: quietLogger)
        let low = try ImageVariants(configuration: .init(directory: dir + "/b", jpegQuality: 40),
                                    renderer: VipsRenderer(jpegQuality: 40), logger: quietLogger)
        guard case .variant(_, let highLength, _) = try high.variant(of: Fixtures.path("photo-800x600.jpg"), width: "400"),
              case .variant(_, let lowLength, _) = try low.variant(of: Fixtures.path("photo-800x600.jpg"), width: "400") else {
            return XCTFail("expected variants")
        }
        XCTAssertGreaterThan(highLength, lowLength)
        XCTAssertEqual(high.configuration.jpegQuality, 85)
    }
}
