// image-thumbs: image variant benchmarks through the Files module, as a server would run them.
//
//   image-thumbs first IMAGE COUNT THREADS WORKERS DIR
//       COUNT first-time thumbnails of IMAGE, each to fit 200x200 under its own key (so each one is
//       decoded), requested from THREADS threads through one ImageVariants with WORKERS decode workers
//       and its cache in DIR. Prints "thumbnails/s R seconds S".
//   image-thumbs peak IMAGE COUNT WORKERS DIR
//       COUNT first-time thumbnails requested at once (one thread each) with WORKERS decode workers;
//       samples the resident set every 2 ms. Prints "peak_rss_kb P before_kb B seconds S".
//   image-thumbs hits IMAGE COUNT DIR
//       One thumbnail made, then asked for COUNT times (cache hits). Prints "ns_per_hit N".
import Files
import Foundation
import Logging

let args = CommandLine.arguments
func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data((text + "\n").utf8))
    exit(2)
}
guard args.count >= 2 else { fail("usage: image-thumbs first|peak|hits ...") }
let quiet = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }

func variants(_ dir: String, workers: Int) throws -> ImageVariants {
    try ImageVariants(configuration: .init(directory: dir, workers: workers), logger: quiet)
}

let fit200 = ResizeRequest(width: "200", height: "200", thumb: nil)

/// An integer shared by threads.
final class Shared: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// Adds `n` and returns the value before.
    func add(_ n: Int) -> Int { lock.withLock { defer { value += n }; return value } }
    func raise(to n: Int) { lock.withLock { value = max(value, n) } }
    var current: Int { lock.withLock { value } }
}

/// Runs `body(i)` for i in 0..<count on `threads` threads, handing out indexes in order.
func run(count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let next = Shared()
    let group = DispatchGroup()
    for _ in 0..<threads {
        group.enter()
        Thread {
            while true {
                let mine = next.add(1)
                if mine >= count { break }
                body(mine)
            }
            group.leave()
        }.start()
    }
    group.wait()
}

/// The resident set of this process in kB, from /proc.
@Sendable func rssKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

@Sendable func check(_ result: Result<VariantResult, ImageVariantError>, _ failures: Shared) {
    guard case .success(.variant) = result else {
        _ = failures.add(1)
        return
    }
}

switch args[1] {
case "first":
    guard args.count == 7, let count = Int(args[3]), let threads = Int(args[4]), let workers = Int(args[5]) else {
        fail("usage: image-thumbs first IMAGE COUNT THREADS WORKERS DIR")
    }
    let image = args[2]
    let cache = try variants(args[6], workers: workers)
    let failures = Shared()
    let start = Date()
    run(count: count, threads: threads) { i in
        check(Result { () throws(ImageVariantError) in
            try cache.variant(of: image, key: VariantKey(file: "bench-\(i)", version: 1), request: fit200)
        }, failures)
    }
    let seconds = Date().timeIntervalSince(start)
    if failures.current > 0 { fail("\(failures.current) thumbnails failed") }
    print(String(format: "thumbnails/s %.2f seconds %.3f", Double(count) / seconds, seconds))

case "peak":
    guard args.count == 6, let count = Int(args[3]), let workers = Int(args[4]) else {
        fail("usage: image-thumbs peak IMAGE COUNT WORKERS DIR")
    }
    let image = args[2]
    let cache = try variants(args[5], workers: workers)
    // Load libvips and warm the process with one thumbnail of another key, so that the figure is the
    // steady state of a running server, not its start.
    _ = try cache.variant(of: image, key: VariantKey(file: "warm", version: 1), request: fit200)
    let before = rssKB()
    let peak = Shared()
    let done = Shared()
    let sampler = Thread {
        while done.current == 0 {
            peak.raise(to: rssKB())
            usleep(2000)
        }
    }
    sampler.start()
    let failures = Shared()
    let start = Date()
    run(count: count, threads: count) { i in
        check(Result { () throws(ImageVariantError) in
            try cache.variant(of: image, key: VariantKey(file: "peak-\(i)", version: 1), request: fit200)
        }, failures)
    }
    let seconds = Date().timeIntervalSince(start)
    _ = done.add(1)
    if failures.current > 0 { fail("\(failures.current) thumbnails failed") }
    print(String(format: "peak_rss_kb %d before_kb %d seconds %.3f", max(peak.current, rssKB()), before, seconds))

case "hits":
    guard args.count == 5, let count = Int(args[3]) else { fail("usage: image-thumbs hits IMAGE COUNT DIR") }
    let cache = try variants(args[4], workers: 1)
    let key = VariantKey(file: "hit", version: 1)
    _ = try cache.variant(of: args[2], key: key, request: fit200)
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count {
        guard case .variant = try cache.variant(of: args[2], key: key, request: ResizeRequest(width: "200", height: "200", thumb: nil)) else {
            fail("not a hit")
        }
    }
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    print(String(format: "ns_per_hit %.0f", Double(elapsed) / Double(count)))

default:
    fail("unknown mode \(args[1])")
}
