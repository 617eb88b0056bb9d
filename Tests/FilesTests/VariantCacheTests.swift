import Foundation
import XCTest
@testable import Files

/// The on-disk variant cache: the size bound with LRU eviction (BB-118), deferred deletion of evicted
/// files, and the index rebuilt at start-up.
final class VariantCacheTests: XCTestCase {
    private let photo = Fixtures.path("photo-800x600.jpg")

    private func path(of result: VariantResult) -> String? {
        if case .variant(let path, _, _) = result { return path }
        return nil
    }

    /// The variant files on disk (temp directory excluded) and their total size.
    private func filesOnDisk(_ directory: String) -> (count: Int, bytes: Int) {
        var count = 0, bytes = 0
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where folder != "tmp" {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? [] {
                count += 1
                bytes += VariantFiles.info(directory + "/" + folder + "/" + name)?.size ?? 0
            }
        }
        return (count, bytes)
    }

    func testLeastRecentlyUsedVariantsAreEvictedToKeepTheBound() throws {
        let counting = CountingRenderer(FakeRenderer(size: 1000))
        let variants = try makeVariants(self, renderer: counting, cacheBytes: 3500)
        let a = try variants.variant(of: photo, width: "10")
        _ = try variants.variant(of: photo, width: "20")
        _ = try variants.variant(of: photo, width: "30")
        XCTAssertEqual(variants.cachedBytes, 3000)
        // Using A makes B the least recently used; D then evicts B.
        XCTAssertEqual(try variants.variant(of: photo, width: "10"), a)
        _ = try variants.variant(of: photo, width: "40")
        XCTAssertEqual(variants.cachedBytes, 3000)
        XCTAssertEqual(variants.cachedCount, 3)
        XCTAssertEqual(counting.count, 4)
        for width in ["10", "30", "40"] { _ = try variants.variant(of: photo, width: width) }
        XCTAssertEqual(counting.count, 4, "A, C and D are still cached")
        _ = try variants.variant(of: photo, width: "20")
        XCTAssertEqual(counting.count, 5, "B was evicted and is made again")
        XCTAssertLessThanOrEqual(variants.cachedBytes, 3500)
        // With no grace, evicted files are gone from disk too: disk and index agree.
        let disk = filesOnDisk(variants.configuration.directory)
        XCTAssertEqual(disk.count, variants.cachedCount)
        XCTAssertEqual(disk.bytes, variants.cachedBytes)
    }

    func testTheBoundHoldsUnderRandomWork() throws {
        var generator = SystemRandomNumberGenerator()
        let variants = try makeVariants(self, renderer: RandomSizeRenderer(), cacheBytes: 20_000)
        for _ in 0..<150 {
            let width = String(Int.random(in: 1...40, using: &generator))
            _ = try variants.variant(of: photo, width: width)
            XCTAssertLessThanOrEqual(variants.cachedBytes, 20_000)
        }
        let disk = filesOnDisk(variants.configuration.directory)
        XCTAssertEqual(disk.bytes, variants.cachedBytes)
        XCTAssertEqual(disk.count, variants.cachedCount)
        XCTAssertGreaterThan(variants.cachedCount, 5)
    }

    func testEvictedFilesOutliveTheirEvictionForTheGracePeriod() throws {
        let variants = try makeVariants(self, renderer: FakeRenderer(size: 1000), cacheBytes: 1500,
                                        grace: .milliseconds(300))
        let served = try XCTUnwrap(path(of: try variants.variant(of: photo, width: "10")))
        // A response holding `served` has not opened it yet when another variant evicts it.
        _ = try variants.variant(of: photo, width: "20")
        XCTAssertEqual(variants.cachedCount, 1)
        XCTAssertEqual(FileManager.default.contents(atPath: served)?.count, 1000, "still there to be sent")
        Thread.sleep(forTimeInterval: 0.35)
        _ = try variants.variant(of: photo, width: "30")          // the next operation deletes it
        XCTAssertFalse(FileManager.default.fileExists(atPath: served))
        // Made again, the variant gets a new file name: the late deletion of the old one cannot hit it.
        let again = try XCTUnwrap(path(of: try variants.variant(of: photo, width: "10")))
        XCTAssertNotEqual(again, served)
    }

    func testAVariantLargerThanTheWholeCacheIsServedButNotKept() throws {
        let variants = try makeVariants(self, renderer: FakeRenderer(size: 5000), cacheBytes: 4000, grace: .seconds(60))
        let result = try variants.variant(of: photo, width: "10")
        let file = try XCTUnwrap(path(of: result))
        XCTAssertEqual(FileManager.default.contents(atPath: file)?.count, 5000)
        XCTAssertEqual(variants.cachedCount, 0)
        XCTAssertEqual(variants.cachedBytes, 0)
    }

    func testTheCacheSurvivesARestart() throws {
        let directory = try makeTemporaryDirectory(self) + "/variants"
        let first = try makeVariants(self, directory: directory)
        let sizes = ["100", "200", "300"]
        var paths: [String: String] = [:]
        for width in sizes { paths[width] = path(of: try first.variant(of: photo, width: width)) }
        XCTAssertEqual(first.cachedCount, 3)
        // A crash left a temp file behind.
        let leftover = directory + "/tmp/" + VariantFiles.randomHex() + ".tmp"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data([1, 2, 3])))

        let counting = CountingRenderer()
        let second = try makeVariants(self, renderer: counting, directory: directory)
        XCTAssertEqual(second.cachedCount, 3)
        XCTAssertEqual(second.cachedBytes, first.cachedBytes)
        for width in sizes {
            XCTAssertEqual(path(of: try second.variant(of: photo, width: width)), paths[width])
        }
        XCTAssertEqual(counting.count, 0, "served from the files of the previous run")
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
    }

    func testRestartOrdersByModificationTimeAndAppliesANewBound() throws {
        let directory = try makeTemporaryDirectory(self) + "/variants"
        let first = try makeVariants(self, renderer: FakeRenderer(size: 1000), directory: directory)
        var paths: [String] = []
        for width in ["1", "2", "3", "4"] { paths.append(try XCTUnwrap(path(of: try first.variant(of: photo, width: width)))) }
        // Last used: 3 (oldest), 1, 4, 2 (newest).
        for (index, path) in [paths[2], paths[0], paths[3], paths[1]].enumerated() {
            var times = [timespec(tv_sec: 1_700_000_000 + index, tv_nsec: 0), timespec(tv_sec: 1_700_000_000 + index, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        }
        // Restarted with room for two: the two most recent stay, the others are deleted.
        let configuration = ImageVariants.Configuration(directory: directory, cacheBytes: 2500)
        let second = try ImageVariants(configuration: configuration, renderer: FakeRenderer(size: 1000), logger: quietLogger)
        XCTAssertEqual(second.cachedCount, 2)
        XCTAssertEqual(second.cache.keysByRecency.count, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths[1]))
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths[3]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths[0]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths[2]))
        XCTAssertEqual(path(of: try second.variant(of: photo, width: "2")), paths[1])
    }

    func testRestartKeepsOnlyTheNewestCopyOfAVariant() throws {
        let directory = try makeTemporaryDirectory(self) + "/variants"
        let first = try makeVariants(self, renderer: FakeRenderer(size: 100), directory: directory)
        let current = try XCTUnwrap(path(of: try first.variant(of: photo, width: "10")))
        // An older copy of the same variant (as a crash between publishing and deleting could leave).
        let name = (current as NSString).lastPathComponent
        let older = (current as NSString).deletingLastPathComponent + "/" + String(name.prefix(33)) + VariantFiles.randomHex() + ".jpg"
        XCTAssertTrue(FileManager.default.createFile(atPath: older, contents: Data(count: 100)))
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, older, &times, 0), 0)
        // And files that are no variants at all are left alone.
        let stranger = directory + "/" + String(name.prefix(2)) + "/notes.txt"
        XCTAssertTrue(FileManager.default.createFile(atPath: stranger, contents: Data([1])))

        let second = try makeVariants(self, renderer: FakeRenderer(size: 100), directory: directory)
        XCTAssertEqual(second.cachedCount, 1)
        XCTAssertEqual(path(of: try second.variant(of: photo, width: "10")), current)
        XCTAssertFalse(FileManager.default.fileExists(atPath: older))
        XCTAssertTrue(FileManager.default.fileExists(atPath: stranger))
    }

    func testFileNames() {
        let key = String(repeating: "ab", count: 16)
        XCTAssertEqual(VariantCache.parse(key + "-0123456789abcdef.jpg")?.key.hex, key)
        XCTAssertEqual(VariantCache.parse(key + "-0123456789abcdef.gif")?.format, .gif)
        XCTAssertNil(VariantCache.parse(key + "-0123456789abcdef.webp"))
        XCTAssertNil(VariantCache.parse(key + "-0123456789ABCDEF.jpg"))
        XCTAssertNil(VariantCache.parse(key + "_0123456789abcdef.jpg"))
        XCTAssertNil(VariantCache.parse("short.jpg"))
        // Keys never contain client text.
        let one = VariantKey(file: "../../etc/passwd", version: 1).cacheName(for: ResizeRequest(width: "1", height: nil, thumb: nil)).hex
        XCTAssertEqual(one.count, 32)
        XCTAssertTrue(one.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        XCTAssertEqual(VariantName(hex: one)?.hex, one)
        XCTAssertNil(VariantName(hex: String(one.dropLast())))
        XCTAssertNil(VariantName(hex: one.uppercased()))
        XCTAssertEqual(VariantName(hex: String(repeating: "0", count: 31) + "1")?.hex, String(repeating: "0", count: 31) + "1")
        // File, version and request each make a different variant.
        let request = ResizeRequest(width: "1", height: nil, thumb: nil)
        let names = [VariantKey(file: "a", version: 1).cacheName(for: request),
                     VariantKey(file: "a", version: 2).cacheName(for: request),
                     VariantKey(file: "b", version: 1).cacheName(for: request),
                     VariantKey(file: "a", version: 1).cacheName(for: ResizeRequest(width: "2", height: nil, thumb: nil))]
        XCTAssertEqual(Set(names).count, 4)
    }

    func testLRUList() {
        var list = LRUList<String, Int>()
        list.insert("a", 1)
        list.insert("b", 2)
        list.insert("c", 3)
        XCTAssertEqual(list.keysByRecency, ["c", "b", "a"])
        XCTAssertEqual(list.touch("a"), 1)
        XCTAssertEqual(list.keysByRecency, ["a", "c", "b"])
        XCTAssertEqual(list.removeOldest()?.key, "b")
        XCTAssertEqual(list.insert("c", 30), 3)
        XCTAssertEqual(list.keysByRecency, ["c", "a"])
        XCTAssertEqual(list.remove("a"), 1)
        XCTAssertNil(list.touch("a"))
        XCTAssertEqual(list.peek("c"), 30)
        XCTAssertEqual(list.removeOldest()?.key, "c")
        XCTAssertNil(list.removeOldest())
        XCTAssertEqual(list.count, 0)
        // Against a simple model under random operations.
        var generator = SystemRandomNumberGenerator()
        var model: [Int] = []                                  // most recent first
        var lru = LRUList<Int, Int>()
        for _ in 0..<5000 {
            let key = Int.random(in: 0..<20, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                lru.insert(key, key)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
            case 1:
                if lru.touch(key) != nil, let index = model.firstIndex(of: key) {
                    model.remove(at: index)
                    model.insert(key, at: 0)
                }
            case 2:
                lru.remove(key)
                model.removeAll { $0 == key }
            default:
                XCTAssertEqual(lru.removeOldest()?.key, model.popLast())
            }
            XCTAssertEqual(lru.keysByRecency, model)
        }
    }

    func testFailureMemoryForgetsTheOldestFirst() {
        func name(_ n: Int) -> VariantName {
            let hex = String(n, radix: 16)
            return VariantName(hex: String(repeating: "0", count: 32 - hex.count) + hex) ?? VariantName(digest: [])
        }
        var memory = FailureMemory(capacity: 3)
        for n in 1...4 { memory.insert(name(n)) }
        XCTAssertFalse(memory.contains(name(1)))
        XCTAssertTrue(memory.contains(name(2)) && memory.contains(name(3)) && memory.contains(name(4)))
        for n in 100..<200 { memory.insert(name(n)) }
        XCTAssertTrue(memory.contains(name(199)) && memory.contains(name(197)))
        XCTAssertFalse(memory.contains(name(196)))
    }
}

/// A renderer making outputs of varied sizes (100 to 3,000 bytes), no decoding.
struct RandomSizeRenderer: ImageRendering {
    func render(source: String, header: ImageHeader, plan: ResizePlan) throws(ImageRenderError) -> [UInt8] {
        Array(repeating: 7, count: Int.random(in: 100...3000))
    }
}
