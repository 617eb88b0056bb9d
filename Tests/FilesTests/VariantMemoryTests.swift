import Foundation
import XCTest
@testable import Files

/// Small variants held in memory (`ImageVariants.cachedContents`): the same bytes as their file, only for a
/// variant already cached, gone with its cache entry, bounded in size.
final class VariantMemoryTests: XCTestCase {
    private let photo = Fixtures.path("photo-800x600.jpg")

    private func memory(_ variants: ImageVariants, file: String = "f1", version: Int = 1,
                        width: String) -> CachedVariant? {
        variants.cachedContents(key: VariantKey(file: file, version: version),
                                request: ResizeRequest(width: width, height: nil, thumb: nil))
    }

    func testAMadeVariantIsHeldWithTheBytesOfItsFile() throws {
        let variants = try makeVariants(self)
        XCTAssertNil(memory(variants, width: "200"), "nothing asked yet")
        guard case .variant(let path, let length, let mime) = try variants.variant(of: photo, width: "200") else {
            return XCTFail("expected a variant")
        }
        let held = try XCTUnwrap(memory(variants, width: "200"))
        XCTAssertEqual(held.bytes, Array(try XCTUnwrap(FileManager.default.contents(atPath: path))))
        XCTAssertEqual(held.bytes.count, length)
        XCTAssertEqual(held.mimeType, mime)
        XCTAssertEqual(variants.memoryBytes, length)
        // Another version of the content, another size or an original is not this variant.
        XCTAssertNil(memory(variants, version: 2, width: "200"))
        XCTAssertNil(memory(variants, file: "f2", width: "200"))
        XCTAssertNil(memory(variants, width: "201"))
        XCTAssertNil(variants.cachedContents(key: VariantKey(file: "f1", version: 1),
                                             request: ResizeRequest(width: nil, height: nil, thumb: nil)))
        XCTAssertEqual(variants.statistics.hits, 1, "the memory answer counts as a hit")
    }

    func testAVariantIndexedAtStartUpIsHeldAfterItsFirstHit() throws {
        let directory = try makeTemporaryDirectory(self) + "/variants"
        _ = try makeVariants(self, renderer: FakeRenderer(size: 700), directory: directory).variant(of: photo, width: "20")
        let reopened = try makeVariants(self, renderer: FakeRenderer(size: 700), directory: directory)
        XCTAssertNil(memory(reopened, width: "20"))
        _ = try reopened.variant(of: photo, width: "20")
        XCTAssertEqual(memory(reopened, width: "20")?.bytes, Array(repeating: 0x5A, count: 700))
    }

    func testAnEvictedVariantLeavesMemoryWithItsEntry() throws {
        let counting = CountingRenderer(FakeRenderer(size: 1000))
        let variants = try makeVariants(self, renderer: counting, cacheBytes: 2500)
        _ = try variants.variant(of: photo, width: "10")
        _ = try variants.variant(of: photo, width: "20")
        // An answer from memory is a use: 20 becomes the most recent, so 30 evicts 10.
        XCTAssertNotNil(memory(variants, width: "20"))
        _ = try variants.variant(of: photo, width: "30")
        XCTAssertNil(memory(variants, width: "10"))
        XCTAssertNotNil(memory(variants, width: "20"))
        XCTAssertEqual(variants.memoryBytes, 2000)
        _ = try variants.variant(of: photo, width: "10")
        XCTAssertEqual(counting.count, 4, "made again, from the source")
    }

    func testMemoryIsBoundedAndLargeVariantsStayOnDisk() throws {
        let small = try makeVariants(self, renderer: FakeRenderer(size: 1000), memoryBytes: 2500)
        for width in ["10", "20", "30", "40", "50"] {
            _ = try small.variant(of: photo, width: width)
            XCTAssertLessThanOrEqual(small.memoryBytes, 2500)
        }
        XCTAssertNotNil(memory(small, width: "50"), "the newest is held after the memory started over")
        let large = try makeVariants(self, renderer: FakeRenderer(size: ImageVariants.Configuration.defaultMemoryEntryBytes + 1))
        _ = try large.variant(of: photo, width: "10")
        _ = try large.variant(of: photo, width: "10")
        XCTAssertNil(memory(large, width: "10"))
        XCTAssertEqual(large.memoryBytes, 0)
        let none = try makeVariants(self, renderer: FakeRenderer(size: 100), memoryBytes: 0)
        _ = try none.variant(of: photo, width: "10")
        XCTAssertNil(memory(none, width: "10"))
    }
}
