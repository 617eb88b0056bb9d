import Foundation
import XCTest
@testable import Files

/// Truncated, corrupt and hostile images never crash and get the spec's outcome (BB-114, BB-115):
/// too many declared pixels -> `imageTooLarge` before any decoding; a decode failure -> the original,
/// nothing cached.
final class ImageVariantsHostileTests: XCTestCase {
    func testDecompressionBombsAreRefusedFromTheHeaderWithoutDecoding() throws {
        let counting = CountingRenderer()
        let variants = try makeVariants(self, renderer: counting)
        let cases: [(String, Int)] = [
            ("bomb-50000.png", 2_500_000_000), ("bomb.png", 10_000_000_000), ("bomb.gif", 65535 * 65535),
            ("huge-dimensions.jpg", 65500 * 65500),
        ]
        for (name, pixels) in cases {
            XCTAssertThrowsError(try variants.variant(of: Fixtures.path(name), width: "100"), name) { error in
                XCTAssertEqual(error as? ImageVariantError, .imageTooLarge(pixels: pixels, limit: 50_000_000), name)
            }
            // thumb requests too, and every time (nothing remembered as a success).
            XCTAssertThrowsError(try variants.variant(of: Fixtures.path(name), thumb: "10x10"), name)
        }
        XCTAssertEqual(counting.count, 0, "no decoder ever ran")
        XCTAssertEqual(variants.cachedCount, 0)
        XCTAssertEqual(variants.statistics.tooLarge, 8)
        // Without a resize request the original is served as it is: the cap guards decoding only.
        XCTAssertEqual(try variants.variant(of: Fixtures.path("bomb.png")), .original)
    }

    func testThePixelCapIsConfigurable() throws {
        let dir = try makeTemporaryDirectory(self)
        let variants = try ImageVariants(configuration: .init(directory: dir, maxPixels: 400_000), logger: quietLogger)
        // 800x600 = 480,000 pixels.
        XCTAssertThrowsError(try variants.variant(of: Fixtures.path("photo-800x600.jpg"), width: "100")) { error in
            XCTAssertEqual(error as? ImageVariantError, .imageTooLarge(pixels: 480_000, limit: 400_000))
        }
        XCTAssertNotNil(inspect(try variants.variant(of: Fixtures.path("orientation-1.jpg"), width: "10")))
    }

    /// An upscaling request whose picture before the crop would exceed the cap is refused the same way.
    func testHugeIntermediatePicturesAreRefused() throws {
        let dir = try makeTemporaryDirectory(self)
        let variants = try ImageVariants(configuration: .init(directory: dir, maxPixels: 1_000_000), logger: quietLogger)
        // bands.png is 60x120; 4096x4096 covering it needs 4096x8192 before the crop.
        XCTAssertThrowsError(try variants.variant(of: Fixtures.path("bands.png"), thumb: "4096x4096")) { error in
            XCTAssertEqual(error as? ImageVariantError, .imageTooLarge(pixels: 4096 * 8192, limit: 1_000_000))
        }
    }

    func testTruncatedJPEGServesTheOriginalAndCachesNothing() throws {
        let counting = CountingRenderer()
        let variants = try makeVariants(self, renderer: counting)
        XCTAssertEqual(try variants.variant(of: Fixtures.path("truncated.jpg"), width: "100"), .original)
        XCTAssertEqual(variants.cachedCount, 0)
        XCTAssertEqual(counting.count, 1)
        XCTAssertEqual(variants.statistics.failures, 1)
        // Asked again, the failure is remembered: no second decode.
        XCTAssertEqual(try variants.variant(of: Fixtures.path("truncated.jpg"), width: "100"), .original)
        XCTAssertEqual(counting.count, 1)
        // Nothing was left in the cache directory either.
        let files = FileManager.default.enumerator(atPath: variants.configuration.directory)?.allObjects
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".tmp") } ?? []
        XCTAssertEqual(files, [])
    }

    /// What the renderer reports decides the answer: libvips refusing the size is `imageTooLarge` every
    /// time; a missing libvips serves originals and remembers nothing, so images resize once it is there.
    func testRendererFailuresMapToTheSpecifiedOutcomes() throws {
        let tooLarge = try makeVariants(self, renderer: FailingRenderer(kind: .tooLarge))
        for _ in 0..<2 {
            XCTAssertThrowsError(try tooLarge.variant(of: Fixtures.path("photo-800x600.jpg"), width: "10")) { error in
                XCTAssertEqual(error as? ImageVariantError, .imageTooLarge(pixels: 480_000, limit: 50_000_000))
            }
        }
        let missing = FailingRenderer(kind: .unavailable)
        let unavailable = try makeVariants(self, renderer: missing)
        for _ in 0..<3 {
            XCTAssertEqual(try unavailable.variant(of: Fixtures.path("photo-800x600.jpg"), width: "10"), .original)
        }
        XCTAssertEqual(missing.calls, 3, "not remembered as the image's failure")
        XCTAssertEqual(unavailable.cachedCount, 0)
    }

    func testCorruptPNGServesTheOriginal() throws {
        let variants = try makeVariants(self)
        XCTAssertEqual(try variants.variant(of: Fixtures.path("corrupt.png"), width: "20"), .original)
        XCTAssertEqual(try variants.variant(of: Fixtures.path("corrupt.png"), thumb: "10x10"), .original)
        XCTAssertEqual(variants.cachedCount, 0)
    }

    /// Every fixture, cut short at many lengths and randomly damaged, through the real decoder: never a
    /// crash, and each answer is one of the allowed outcomes with a variant that really is an image.
    func testDamagedImagesThroughTheDecoderNeverCrash() throws {
        let variants = try makeVariants(self)
        let dir = try makeTemporaryDirectory(self)
        var generator = SystemRandomNumberGenerator()
        let sources = ["photo-800x600.jpg", "orientation-6.jpg", "quadrants.png", "animated.gif", "orientation-6.png"]
        var outcomes: [String: Int] = [:]
        for name in sources {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.path(name)).map(Array.init))
            var samples: [[UInt8]] = stride(from: 8, to: bytes.count, by: max(1, bytes.count / 40)).map { Array(bytes.prefix($0)) }
            for _ in 0..<40 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...16, using: &generator) {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                samples.append(mutated)
            }
            for (index, sample) in samples.enumerated() {
                let path = try writeFile(sample, in: dir, name: "\(name)-\(index)")
                do {
                    let result = try variants.variant(of: path, file: path, width: "30")
                    switch result {
                    case .original: outcomes["original", default: 0] += 1
                    case .variant:
                        outcomes["variant", default: 0] += 1
                        XCTAssertNotNil(inspect(result), "a cached variant must be a readable image")
                    }
                } catch ImageVariantError.imageTooLarge {
                    outcomes["tooLarge", default: 0] += 1
                }
            }
        }
        XCTAssertGreaterThan(outcomes["original", default: 0], 0, "\(outcomes)")
    }
}

/// A renderer that always fails with `kind`, counting its calls.
final class FailingRenderer: ImageRendering, @unchecked Sendable {
    let kind: ImageRenderError.Kind
    private let lock = NSLock()
    private var count = 0

    init(kind: ImageRenderError.Kind) { self.kind = kind }

    var calls: Int { lock.withLock { count } }

    func render(source: String, header: ImageHeader, plan: ResizePlan) throws(ImageRenderError) -> [UInt8] {
        lock.withLock { count += 1 }
        throw ImageRenderError(kind, "test")
    }
}
