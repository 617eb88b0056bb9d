import Foundation
import Logging
import XCTest
@testable import Files

/// The image fixtures (Tests/Fixtures/images, made by its make-fixtures.py), found from this file's path.
enum Fixtures {
    static let directory: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images").path
    }()

    static func path(_ name: String) -> String { directory + "/" + name }
}

/// An `ImageRendering` around another that counts its calls and how many run at once, and can hold
/// every call until released.
final class CountingRenderer: ImageRendering, @unchecked Sendable {
    private let inner: any ImageRendering
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var calls = 0
    private var running = 0
    private var maxRunning = 0
    private var held = false
    private let delay: TimeInterval

    init(_ inner: any ImageRendering = VipsRenderer(), delay: TimeInterval = 0, held: Bool = false) {
        self.inner = inner
        self.delay = delay
        self.held = held
    }

    var count: Int { condition.withLock { calls } }
    var peakConcurrency: Int { condition.withLock { maxRunning } }
    var active: Int { condition.withLock { running } }

    /// Lets held calls (and later ones) go on.
    func release() {
        condition.withLock {
            held = false
            condition.broadcast()
        }
    }

    func render(source: String, header: ImageHeader, plan: ResizePlan) throws(ImageRenderError) -> [UInt8] {
        condition.withLock {
            calls += 1
            running += 1
            maxRunning = max(maxRunning, running)
            condition.broadcast()
            while held { condition.wait() }
        }
        defer { condition.withLock { running -= 1 } }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        return try inner.render(source: source, header: header, plan: plan)
    }

    /// Waits until `n` calls are running (or `timeout` passes); true when they are.
    func waitForRunning(_ n: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while running < n {
                if !condition.wait(until: deadline) { return running >= n }
            }
            return true
        }
    }
}

/// A renderer that makes `size` bytes of a fixed pattern without decoding anything.
struct FakeRenderer: ImageRendering {
    var size = 1000

    func render(source: String, header: ImageHeader, plan: ResizePlan) throws(ImageRenderError) -> [UInt8] {
        Array(repeating: 0x5A, count: size)
    }
}

/// A fresh `ImageVariants` in a temporary directory.
func makeVariants(_ test: XCTestCase, renderer: (any ImageRendering)? = nil, cacheBytes: Int = 1 << 30,
                  workers: Int = 2, queueWait: Duration = .seconds(60), grace: Duration = .zero,
                  directory: String? = nil,
                  memoryBytes: Int = ImageVariants.Configuration.defaultMemoryBytes) throws -> ImageVariants {
    let dir = try directory ?? (makeTemporaryDirectory(test) + "/variants")
    let configuration = ImageVariants.Configuration(directory: dir, cacheBytes: cacheBytes, workers: workers,
                                                    queueWait: queueWait, evictionGrace: grace, memoryBytes: memoryBytes)
    return try ImageVariants(configuration: configuration, renderer: renderer, logger: quietLogger)
}

/// A logger that drops everything (hostile fixtures are expected to fail to decode).
let quietLogger = Logger(label: "quartet.files.tests") { _ in SwiftLogNoOpLogHandler() }

extension ImageVariants {
    /// `variant` with the request read from parameters, for brevity in tests.
    func variant(of source: String, file: String = "f1", version: Int = 1, width: String? = nil,
                 height: String? = nil, thumb: String? = nil) throws -> VariantResult {
        try variant(of: source, key: VariantKey(file: file, version: version),
                    request: ResizeRequest(width: width, height: height, thumb: thumb))
    }
}

/// libvips' own reading of a variant file: format (by signature), upright size and frame count.
func inspect(_ result: VariantResult, file: StaticString = #filePath, line: UInt = #line)
    -> (format: ImageFormat, width: Int, height: Int, pages: Int, path: String)? {
    guard case .variant(let path, let length, let mime) = result else {
        XCTFail("expected a variant, got \(result)", file: file, line: line)
        return nil
    }
    guard let bytes = FileManager.default.contents(atPath: path), bytes.count == length,
          let format = ImageFormat.detect(Array(bytes.prefix(8))), format.mimeType == mime,
          let header = Vips.header(path: path, format: format) else {
        XCTFail("variant file \(path) unreadable or not what it claims", file: file, line: line)
        return nil
    }
    let upright = header.orientation >= 5 ? (header.height, header.width) : (header.width, header.height)
    return (format, upright.0, upright.1, header.pages, path)
}

/// The named colour nearest to an RGB pixel, so tests can say "red" where JPEG gives (219, 31, 29).
func colourName(_ pixel: [Double]?) -> String {
    guard let pixel, pixel.count >= 3 else { return "none" }
    let named: [(String, [Double])] = [("red", [220, 30, 30]), ("green", [30, 200, 60]), ("blue", [40, 60, 220]),
                                       ("yellow", [240, 220, 40]), ("white", [255, 255, 255]), ("black", [0, 0, 0])]
    let distance = { (c: [Double]) in zip(c, pixel.prefix(3)).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) }
    return named.min { distance($0.1) < distance($1.1) }?.0 ?? "none"
}

/// The colour name of the upright pixel (x, y) of an image file.
func colour(at x: Int, _ y: Int, of path: String, format: ImageFormat) -> String {
    colourName(Vips.pixel(path: path, format: format, x: x, y: y))
}
