import Foundation
import XCTest
@testable import Files

/// Single flight (BB-117), the bounded worker pool and its queue wait.
final class ImageVariantsConcurrencyTests: XCTestCase {
    /// Runs `body` on `count` threads at once and returns their results in order.
    private func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T?] {
        let results = ResultBox<T>(count: count)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                results.set(index, body(index))
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "threads did not finish")
        return results.values
    }

    func testHundredConcurrentRequestsForOneNewVariantDecodeItOnce() throws {
        let counting = CountingRenderer(VipsRenderer(), held: true)
        let variants = try makeVariants(self, renderer: counting)
        let photo = Fixtures.path("photo-800x600.jpg")
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Result<VariantResult, ImageVariantError>>(count: 100)
        for index in 0..<100 {
            Thread {
                box.set(index, Result { () throws(ImageVariantError) in
                    try variants.variant(of: photo, key: VariantKey(file: "photo", version: 1),
                                         request: ResizeRequest(width: "200", height: "200", thumb: nil))
                })
                done.signal()
            }.start()
        }
        // The first caller is decoding (held); wait until the 99 others are queued behind it.
        XCTAssertTrue(counting.waitForRunning(1))
        let deadline = Date(timeIntervalSinceNow: 30)
        while variants.flights.waiting < 99, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(variants.flights.waiting, 99)
        counting.release()
        for _ in 0..<100 { XCTAssertEqual(done.wait(timeout: .now() + 60), .success) }

        XCTAssertEqual(counting.count, 1, "decoded once")
        let results = box.values.compactMap { try? $0?.get() }
        XCTAssertEqual(results.count, 100)
        XCTAssertEqual(Set(results.map { "\($0)" }).count, 1, "all received the same variant")
        let info = try XCTUnwrap(inspect(try XCTUnwrap(results.first)))
        XCTAssertEqual([info.width, info.height], [200, 150])
        XCTAssertEqual(variants.cachedCount, 1)
    }

    func testConcurrentRequestsWithoutHoldingStillDecodeOnce() throws {
        let counting = CountingRenderer(VipsRenderer(), delay: 0.05)
        let variants = try makeVariants(self, renderer: counting)
        let photo = Fixtures.path("photo-800x600.jpg")
        let results = onThreads(100) { _ in try? variants.variant(of: photo, thumb: "64x64") }
        XCTAssertEqual(counting.count, 1)
        XCTAssertEqual(results.compactMap { $0 ?? nil }.count, 100)
        XCTAssertEqual(Set(results.map { "\(String(describing: $0))" }).count, 1)
    }

    func testNoMoreImagesDecodeAtOnceThanThereAreWorkers() throws {
        let counting = CountingRenderer(FakeRenderer(), held: true)
        let variants = try makeVariants(self, renderer: counting, workers: 2)
        let photo = Fixtures.path("photo-800x600.jpg")
        let done = DispatchSemaphore(value: 0)
        for index in 0..<6 {
            Thread {
                _ = try? variants.variant(of: photo, width: "\(100 + index)")
                done.signal()
            }.start()
        }
        XCTAssertTrue(counting.waitForRunning(2))
        let deadline = Date(timeIntervalSinceNow: 30)
        while variants.workers.waiting < 4, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(variants.workers.waiting, 4, "the other four queue for a worker")
        XCTAssertEqual(variants.workers.running, 2)
        XCTAssertEqual(counting.active, 2)
        counting.release()
        for _ in 0..<6 { XCTAssertEqual(done.wait(timeout: .now() + 60), .success) }
        XCTAssertEqual(counting.peakConcurrency, 2)
        XCTAssertEqual(counting.count, 6)
        XCTAssertEqual(variants.cachedCount, 6)
    }

    func testWaitingLongerThanTheQueueWaitIsBusy() throws {
        let counting = CountingRenderer(FakeRenderer(), held: true)
        let variants = try makeVariants(self, renderer: counting, workers: 1, queueWait: .milliseconds(300))
        let photo = Fixtures.path("photo-800x600.jpg")
        let first = DispatchSemaphore(value: 0)
        Thread {
            _ = try? variants.variant(of: photo, width: "100")
            first.signal()
        }.start()
        XCTAssertTrue(counting.waitForRunning(1))
        let started = Date()
        XCTAssertThrowsError(try variants.variant(of: photo, width: "200")) { error in
            XCTAssertEqual(error as? ImageVariantError, .busy)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.29)
        XCTAssertEqual(variants.statistics.busy, 1)
        counting.release()
        XCTAssertEqual(first.wait(timeout: .now() + 30), .success)
        // Nothing is remembered about a busy answer: the same request succeeds once a worker is free.
        XCTAssertNotNil(try variants.variant(of: photo, width: "200"))
        XCTAssertEqual(variants.cachedCount, 2)
    }

    func testWaitingWithinTheQueueWaitSucceeds() throws {
        let counting = CountingRenderer(FakeRenderer(), held: true)
        let variants = try makeVariants(self, renderer: counting, workers: 1, queueWait: .seconds(30))
        let photo = Fixtures.path("photo-800x600.jpg")
        let first = DispatchSemaphore(value: 0)
        Thread {
            _ = try? variants.variant(of: photo, width: "100")
            first.signal()
        }.start()
        XCTAssertTrue(counting.waitForRunning(1))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { counting.release() }
        guard case .variant = try variants.variant(of: photo, width: "200") else { return XCTFail("expected a variant") }
        XCTAssertEqual(first.wait(timeout: .now() + 30), .success)
    }

    func testWorkersServeFirstComeFirstServedAndQueuedCallersGiveUpAtTheirLimit() {
        let workers = ImageWorkers(count: 1)
        defer { workers.shutdown() }
        let gate = NSCondition()
        nonisolated(unsafe) var open = false
        let holder = DispatchSemaphore(value: 0)
        Thread {
            _ = workers.run(timeout: .seconds(5)) { gate.withLock { while !open { gate.wait() } } }
            holder.signal()
        }.start()
        var deadline = Date(timeIntervalSinceNow: 10)
        while workers.running < 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        // Queued behind the held job, in order.
        let order = ResultBox<Int>(count: 0)
        let done = DispatchGroup()
        for index in 0..<4 {
            done.enter()
            Thread {
                if workers.run(timeout: .seconds(30), { order.append(index) }) == nil { order.append(-1) }
                done.leave()
            }.start()
            deadline = Date(timeIntervalSinceNow: 10)
            while workers.waiting < index + 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        }
        // One more with a short limit gives up while the others stay queued.
        XCTAssertNil(workers.run(timeout: .milliseconds(50)) { order.append(99) })
        XCTAssertEqual(workers.waiting, 4)
        gate.withLock {
            open = true
            gate.broadcast()
        }
        XCTAssertEqual(holder.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(order.appended, [0, 1, 2, 3])
        // A job that started within the limit is waited for to its end, even well past the limit (an
        // idle worker takes it at once; the limit leaves a second for that on a loaded machine).
        let started = Date()
        let slow = workers.run(timeout: .seconds(1)) { () -> Int in
            Thread.sleep(forTimeInterval: 1.5)
            return 7
        }
        XCTAssertEqual(slow, 7)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.4)
    }
}

/// Results written from several threads.
final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T?]
    private var list: [T] = []

    init(count: Int) { items = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) { lock.withLock { items[index] = value } }
    func append(_ value: T) { lock.withLock { list.append(value) } }
    var values: [T?] { lock.withLock { items } }
    var appended: [T] { lock.withLock { list } }
}
