import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real `quartet serve` process on an ephemeral loopback port with its own temporary data directory.
///
/// Black-box tests talk to it only over sockets, the way SDKs do. The binary is the one `swift build`
/// put next to the test bundle (`make test` builds it first); set `QUARTET_BINARY` to use another.
final class TestServer: @unchecked Sendable {
    /// The `quartet` process.
    let process: Process
    /// Temporary data directory, removed by `stop()` unless `keepData` is set.
    let dataDirectory: URL
    /// The port the server printed in its start-up line.
    let port: Int
    /// Everything the server printed on stdout so far (start-up line, generated secrets, logs).
    var output: String { outputBuffer.text }

    private let outputBuffer: OutputBuffer
    private var stopped = false

    /// Starts `quartet serve --host 127.0.0.1 --port 0 --data-dir <tmp>` plus `arguments`, with `environment`
    /// added to the inherited one, and waits (up to `timeout`) for the "listening on" line.
    init(arguments: [String] = [], environment: [String: String] = [:], dataDirectory: URL? = nil,
         timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) throws {
        let binary = ProcessInfo.processInfo.environment["QUARTET_BINARY"].map(URL.init(fileURLWithPath:))
            ?? BinaryLocation.quartet
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw TestServerError.binaryMissing(binary.path)
        }
        let dir = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("quartet-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        self.dataDirectory = dir

        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dir.path,
                             "--migrations-dir", TestServer.migrationsDirectory.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["QUARTET_LOGGING_FORMAT"] = env["QUARTET_LOGGING_FORMAT"] ?? "text"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let buffer = OutputBuffer()
        self.outputBuffer = buffer
        self.process = process
        try process.run()
        // The child's output is drained by blocking reads on a thread of its own, not by
        // `FileHandle.readabilityHandler`: on Linux that handler is a dispatch read source whose teardown
        // races the pipe's close and has crashed the test process inside libdispatch (a freed epoll
        // registration, swift-corelibs-libdispatch issue 949). A blocking read registers nothing with
        // dispatch, and ends by itself at end of file, when the server and its children have exited
        // (`Process.run` closed this process's copy of the write end).
        OutputBuffer.drain(pipe.fileHandleForReading, into: buffer)

        let deadline = Date().addingTimeInterval(timeout)
        var found: Int?
        while Date() < deadline {
            if let p = TestServer.listeningPort(in: buffer.text) { found = p; break }
            if !process.isRunning { break }
            usleep(20_000)
        }
        guard let port = found else {
            if process.isRunning { process.terminate() }
            throw TestServerError.didNotStart(buffer.text)
        }
        self.port = port
    }

    deinit { stop() }

    /// The repository's `Migrations/` folder, found from this source file's location.
    static var migrationsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Migrations")
    }

    /// Parses the port from "Quartet <version> listening on http://HOST:PORT".
    static func listeningPort(in text: String) -> Int? {
        guard let range = text.range(of: "listening on http://") else { return nil }
        let rest = text[range.upperBound...]
        guard let lineEnd = rest.firstIndex(of: "\n") else { return nil }
        let hostPort = rest[..<lineEnd]
        guard let colon = hostPort.lastIndex(of: ":") else { return nil }
        return Int(String(hostPort[hostPort.index(after: colon)...].prefix { $0.isNumber }))
    }

    /// Sends SIGTERM and waits for exit (SIGKILL after `timeout`). Returns the exit status.
    @discardableResult
    func stop(timeout: TimeInterval = 15, removeData: Bool = true) -> Int32 {
        if stopped { return process.isRunning ? -1 : process.terminationStatus }
        stopped = true
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
        if removeData { try? FileManager.default.removeItem(at: dataDirectory) }
        return process.terminationStatus
    }

    /// A new client connection to this server, from the loopback address `source` when given.
    func connect(timeout: TimeInterval = 10, source: String? = nil) throws -> HTTPTestClient {
        try HTTPTestClient(port: port, timeout: timeout, source: source)
    }

    /// One request on a fresh connection (closed afterwards), from the loopback address `source` when given.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                 body: [UInt8] = [], timeout: TimeInterval = 10, source: String? = nil) throws -> TestResponse {
        let client = try connect(timeout: timeout, source: source)
        defer { client.close() }
        return try client.request(method, target, headers: headers, body: body)
    }

    /// Convenience for a UTF-8 string body.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                 body: String, timeout: TimeInterval = 10, source: String? = nil) throws -> TestResponse {
        try request(method, target, headers: headers, body: Array(body.utf8), timeout: timeout, source: source)
    }
}

/// Why a test server could not be used.
enum TestServerError: Error, CustomStringConvertible {
    case binaryMissing(String)
    case didNotStart(String)

    var description: String {
        switch self {
        case .binaryMissing(let p): return "quartet binary not found at \(p); run `swift build` first (make test does)"
        case .didNotStart(let out): return "quartet did not print its listening line; output:\n\(out)"
        }
    }
}

/// Thread-safe accumulation of the child's output.
final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ d: Data) { lock.lock(); data.append(d); lock.unlock() }
    func append(_ bytes: UnsafeRawBufferPointer) { lock.lock(); data.append(contentsOf: bytes); lock.unlock() }

    /// Reads `handle` until end of file (or an error other than EINTR) on a new thread, appending to `buffer`.
    static func drain(_ handle: FileHandle, into buffer: OutputBuffer) {
        let thread = Thread {
            let fd = handle.fileDescriptor
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
            defer { chunk.deallocate() }
            while true {
                let n = read(fd, chunk.baseAddress, chunk.count)
                if n > 0 {
                    buffer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            // Keeps the handle, and so its descriptor, open until the last read.
            withExtendedLifetime(handle) {}
        }
        thread.name = "test-server-output"
        thread.start()
    }
    var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }
}
