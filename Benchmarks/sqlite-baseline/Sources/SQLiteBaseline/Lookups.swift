// The lookup mode (--lookups): primary-key point reads of random existing rows from N threads, the
// bare-SQLite ceiling for a server answering `_bulk_get` (Quartet's documents/s are read against it).
import Foundation

/// What one reader thread did.
struct ReaderResult: Sendable {
    var lookups = 0
    var misses = 0
    var bytes = 0
    var failure: String?
}

/// Results of all readers, filled in by each thread as it finishes.
final class ReaderResults: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ReaderResult]
    init(count: Int) { items = [ReaderResult](repeating: ReaderResult(), count: count) }
    func set(_ index: Int, _ result: ReaderResult) { lock.withLock { items[index] = result } }
    var all: [ReaderResult] { lock.withLock { items } }
}

/// xorshift64*: a per-thread generator, so picking a key costs a few instructions and no lock or
/// system call (SystemRandomNumberGenerator reads the kernel's generator).
struct FastRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next(below bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(bound))
    }
}

/// Seeds the table (before the clock starts), runs the readers for `options.seconds` and prints one
/// summary line; exits with status 1 on any SQLite failure or missing row.
func runLookups(_ options: Options) -> Never {
    do {
        let body = #"{"type":"recipe","steps":""# + String(repeating: "x", count: max(0, options.rowBytes - 28)) + #""}"#
        try LookupConnection(path: options.path).seed(count: options.rows, body: body)
        let keys = (0..<options.rows).map(LookupConnection.key)
        let sharedConnection = options.shared ? try LookupConnection(path: options.path) : nil
        let sharedLock = NSLock()

        let collected = ReaderResults(count: options.threads)
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(options.seconds * 1e9)

        for index in 0..<options.threads {
            group.enter()
            let thread = Thread {
                var result = ReaderResult()
                var random = FastRandom(seed: UInt64(index + 1) &* 104_729)
                do {
                    let own = sharedConnection == nil ? try LookupConnection(path: options.path) : nil
                    // The clock is read once per 64 lookups: a lookup takes a few microseconds.
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        for _ in 0..<64 {
                            let key = keys[random.next(below: keys.count)]
                            let bytes: Int
                            if let own {
                                bytes = try own.lookup(key)
                            } else {
                                sharedLock.lock()
                                defer { sharedLock.unlock() }
                                bytes = try sharedConnection?.lookup(key) ?? 0
                            }
                            result.lookups += 1
                            result.bytes += bytes
                            if bytes == 0 { result.misses += 1 }
                        }
                    }
                } catch {
                    result.failure = "\(error)"
                }
                collected.set(index, result)
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let results = collected.all
        if let failure = results.compactMap(\.failure).first {
            print("error: \(failure)")
            exit(1)
        }
        let lookups = results.reduce(0) { $0 + $1.lookups }
        let misses = results.reduce(0) { $0 + $1.misses }
        let bytes = results.reduce(0) { $0 + $1.bytes }
        let mode = options.shared ? "shared" : "per-thread"
        print(String(format: "mode=lookups threads=%d connections=%@ rows=%d row_bytes=%d seconds=%.2f lookups=%d lookups_per_second=%.1f bytes_per_lookup=%d misses=%d",
                     options.threads, mode, options.rows, body.utf8.count, elapsed, lookups, Double(lookups) / elapsed,
                     lookups > 0 ? bytes / lookups : 0, misses))
        exit(misses == 0 ? 0 : 1)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}
