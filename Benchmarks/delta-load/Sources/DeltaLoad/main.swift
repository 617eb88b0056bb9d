// put_delta load: each connection owns one datastore and sends its current revision with every delta.
// Usage: DeltaLoad --port P --handles FILE [--host 127.0.0.1] [--connections 64] [--threads 2] [--seconds 10]
// The token comes from DS_TOKEN. Output follows wrk's layout so one parser reads both.
import Foundation
import Glibc

struct Options {
    var host = "127.0.0.1"
    var port: UInt16 = 0
    var handlesFile = ""
    var connections = 64
    var threads = 2
    var seconds = 10.0
}

func parseOptions() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    while let flag = args.next() {
        guard let value = args.next() else { fail("missing value after \(flag)") }
        switch flag {
        case "--host": options.host = value
        case "--port": options.port = UInt16(value) ?? 0
        case "--handles": options.handlesFile = value
        case "--connections": options.connections = Int(value) ?? 0
        case "--threads": options.threads = Int(value) ?? 0
        case "--seconds": options.seconds = Double(value) ?? 0
        default: fail("unknown option \(flag)")
        }
    }
    guard options.port != 0, !options.handlesFile.isEmpty, options.connections > 0, options.threads > 0,
          options.seconds > 0 else {
        fail("usage: DeltaLoad --port P --handles FILE [--connections 64] [--threads 2] [--seconds 10]")
    }
    return options
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DeltaLoad: \(message)\n".utf8))
    exit(2)
}

func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Appends `text` percent-encoded except for unreserved characters (RFC 3986), as a form body needs.
func appendFormEncoded(_ text: String, to out: inout [UInt8]) {
    let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            out.append(byte)
        default:
            out.append(UInt8(ascii: "%"))
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 15)])
        }
    }
}

/// One keep-alive connection bound to one datastore.
final class Client {
    let fd: Int32
    let index: Int
    let handle: String
    var rev: Int64 = 0
    var sent = 0
    var startedAt: UInt64 = 0
    var buffer: [UInt8] = []
    /// The request head up to the Content-Length value, built once.
    private let headPrefix: [UInt8]
    /// `handle=<encoded handle>&rev=`, built once.
    private let bodyPrefix: [UInt8]

    init(fd: Int32, index: Int, handle: String, host: String, token: String) {
        self.fd = fd
        self.index = index
        self.handle = handle
        headPrefix = Array(("POST /1/datastores/put_delta HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ").utf8)
        var body = Array("handle=".utf8)
        appendFormEncoded(handle, to: &body)
        body += Array("&rev=".utf8)
        bodyPrefix = body
    }

    /// The next delta: insert one record, as the wrk script of earlier runs did.
    func request() -> [UInt8] {
        sent += 1
        var body = bodyPrefix
        body += Array("\(rev)&nonce=\(index)-\(sent)&changes=".utf8)
        appendFormEncoded("[[\"I\",\"items\",\"r\(sent)\",{\"n\":{\"I\":\"\(sent)\"},\"title\":\"item \(sent)\"}]]", to: &body)
        var out = headPrefix
        out.reserveCapacity(headPrefix.count + body.count + 16)
        out += Array("\(body.count)\r\n\r\n".utf8)
        out += body
        return out
    }
}

/// What one response said.
enum Answer {
    case committed(Int64)
    case conflict(Int64)
    case failed
}

/// The decimal number at the start of `bytes`, if any.
func number(in bytes: ArraySlice<UInt8>) -> Int64? {
    var value: Int64 = 0
    var digits = 0
    for byte in bytes {
        guard byte >= 48 && byte <= 57 else { break }
        value = value &* 10 &+ Int64(byte - 48)
        digits += 1
    }
    return digits > 0 ? value : nil
}

/// Where `needle` first occurs in `bytes[start..<end]`.
func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
    guard end - start >= needle.count else { return nil }
    var i = start
    while i + needle.count <= end {
        if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        i += 1
    }
    return nil
}

let headEnd: [UInt8] = Array("\r\n\r\n".utf8)
let contentLengthName: [UInt8] = Array("\r\ncontent-length:".utf8)
let revPrefix: [UInt8] = Array("{\"rev\":".utf8)
let currentRevision: [UInt8] = Array("current revision is ".utf8)

/// Finds one whole response at the start of `bytes`: its length and what it said, or nil while incomplete.
func takeResponse(_ bytes: [UInt8]) -> (length: Int, answer: Answer)? {
    guard let end = find(headEnd, in: bytes, from: 0, to: bytes.count) else { return nil }
    // Header names compared lower-cased: copy the head once, lower-case ASCII letters.
    let head = bytes[0..<(end + 2)].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    guard let nameAt = find(contentLengthName, in: head, from: 0, to: head.count) else { return (end + 4, .failed) }
    var valueAt = nameAt + contentLengthName.count
    while valueAt < head.count && head[valueAt] == 32 { valueAt += 1 }
    guard let length = number(in: head[valueAt...]) else { return (end + 4, .failed) }
    let bodyStart = end + 4
    let total = bodyStart + Int(length)
    guard bytes.count >= total else { return nil }
    // "HTTP/1.1 200": the status digits start at offset 9.
    guard bytes.count > 12, bytes[9] == 50, bytes[10] == 48, bytes[11] == 48 else { return (total, .failed) }
    if bytes[bodyStart..<min(total, bodyStart + revPrefix.count)].elementsEqual(revPrefix),
       let rev = number(in: bytes[(bodyStart + revPrefix.count)..<total]) {
        return (total, .committed(rev))
    }
    // {"conflict": "Datastore revision r is not current (current revision is c)"}: catch up to c.
    if let at = find(currentRevision, in: bytes, from: bodyStart, to: total),
       let rev = number(in: bytes[(at + currentRevision.count)..<total]) {
        return (total, .conflict(rev))
    }
    return (total, .failed)
}

/// Per-thread tallies.
struct Tally {
    var completed = 0
    var conflicts = 0
    var failures = 0
    var latencies: [UInt64] = []
}

func connect(host: String, port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { fail("socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { fail("bad host \(host)") }
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard rc == 0 else { fail("connect to \(host):\(port): errno \(errno)") }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return fd
}

/// Writes all of `bytes` (the socket is blocking; a request is far smaller than its send buffer).
func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
    }
    return true
}

/// Runs one thread's clients until `deadline`, with poll(2): a thread watches a few dozen sockets at most.
func runLoop(clients: [Client], host: String, token: String, deadline: UInt64) -> Tally {
    var tally = Tally()
    tally.latencies.reserveCapacity(1 << 18)
    var watched = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    for client in clients {
        client.startedAt = monotonicNanos()
        guard sendAll(client.fd, client.request()) else { fail("send failed") }
    }
    var chunk = [UInt8](repeating: 0, count: 16384)
    var open = clients.count
    while open > 0 {
        let now = monotonicNanos()
        if now >= deadline { break }
        let timeout = Int32(min(100, (deadline - now) / 1_000_000 + 1))
        let ready = watched.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        if ready < 0 && errno == EINTR { continue }
        guard ready >= 0 else { fail("poll: \(errno)") }
        for k in watched.indices where watched[k].revents != 0 && watched[k].fd >= 0 {
            let client = clients[k]
            let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 {
                if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                tally.failures += 1
                watched[k].fd = -1
                open -= 1
                continue
            }
            client.buffer.append(contentsOf: chunk[0..<n])
            guard let (length, answer) = takeResponse(client.buffer) else { continue }
            client.buffer.removeFirst(length)
            let finished = monotonicNanos()
            guard finished < deadline else { continue }
            tally.completed += 1
            tally.latencies.append(finished - client.startedAt)
            switch answer {
            case .committed(let rev): client.rev = rev
            case .conflict(let rev): client.rev = rev; tally.conflicts += 1
            case .failed: tally.failures += 1
            }
            client.startedAt = finished
            if !sendAll(client.fd, client.request()) {
                tally.failures += 1
                watched[k].fd = -1
                open -= 1
            }
        }
    }
    return tally
}

/// The tallies of every thread, merged under a lock.
final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var merged = Tally()

    func add(_ tally: Tally) {
        lock.lock()
        merged.completed += tally.completed
        merged.conflicts += tally.conflicts
        merged.failures += tally.failures
        merged.latencies += tally.latencies
        lock.unlock()
    }

    func total() -> Tally {
        lock.lock()
        defer { lock.unlock() }
        return merged
    }
}

/// Hands a thread its clients: each client is used by that one thread only.
struct UncheckedClients: @unchecked Sendable {
    let clients: [Client]
}

func formatLatency(_ nanos: UInt64) -> String {
    let micros = Double(nanos) / 1000
    return micros < 1000 ? String(format: "%.2fus", micros) : String(format: "%.2fms", micros / 1000)
}

let options = parseOptions()
guard let token = ProcessInfo.processInfo.environment["DS_TOKEN"], !token.isEmpty else { fail("DS_TOKEN is not set") }
guard let handlesText = try? String(contentsOfFile: options.handlesFile, encoding: .utf8) else {
    fail("cannot read \(options.handlesFile)")
}
let handles = handlesText.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
guard handles.count >= options.connections else {
    fail("\(options.connections) connections need as many handles; \(options.handlesFile) has \(handles.count)")
}

let clients = (0..<options.connections).map { index in
    Client(fd: connect(host: options.host, port: options.port), index: index + 1, handle: handles[index],
           host: options.host, token: token)
}
let started = monotonicNanos()
let deadline = started + UInt64(options.seconds * 1e9)
let results = LockedResults()
var threads: [Thread] = []
let finished = DispatchGroup()
for t in 0..<options.threads {
    let mine = clients.enumerated().filter { $0.offset % options.threads == t }.map(\.element)
    let box = UncheckedClients(clients: mine)
    finished.enter()
    let thread = Thread {
        results.add(runLoop(clients: box.clients, host: options.host, token: token, deadline: deadline))
        finished.leave()
    }
    threads.append(thread)
    thread.start()
}
finished.wait()
let total = results.total()
let sorted = total.latencies.sorted()
func percentile(_ p: Double) -> UInt64 {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
print("Running \(options.seconds)s put_delta load @ http://\(options.host):\(options.port)")
print("  \(options.threads) threads and \(options.connections) connections")
print("  Latency Distribution")
for (label, p) in [("50%", 0.5), ("75%", 0.75), ("90%", 0.9), ("99%", 0.99)] {
    print("     \(label)   \(formatLatency(percentile(p)))")
}
print("  \(total.completed) requests in \(String(format: "%.2f", options.seconds))s")
// Rate over the requested duration: answers after the deadline are not counted.
print("Requests/sec: \(String(format: "%.2f", Double(total.completed) / options.seconds))")
print("put_delta conflicts: \(total.conflicts), failures: \(total.failures)")
exit(total.failures > 0 ? 1 : 0)
