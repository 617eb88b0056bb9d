import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A response read off the wire by `HTTPTestClient`.
struct TestResponse {
    var status: Int
    var reason: String
    /// Headers in order, names as sent.
    var headers: [(String, String)]
    var body: [UInt8]

    /// First value of a header, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    /// All values of a header, case-insensitively.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed with Foundation (tests only), or nil.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    /// The body as a JSON object, or an empty one.
    var object: [String: Any] { (json as? [String: Any]) ?? [:] }
}

/// Errors of the raw test client.
enum HTTPTestClientError: Error {
    case connectFailed(Int32), timeout, closed, malformed(String)
}

/// A deliberately simple blocking HTTP/1.1 client over one TCP connection, so tests see exactly what the
/// server wrote (pipelining, partial writes, raw malformed requests).
final class HTTPTestClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host:port`. `source` binds the client's end to that IPv4 address first (on Linux every
    /// address of 127.0.0.0/8 is loopback, so `127.0.0.2` is a second client address for the server).
    init(port: Int, host: String = "127.0.0.1", timeout: TimeInterval = 10, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPTestClientError.connectFailed(errno) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { let e = errno; Glibc.close(fd); throw HTTPTestClientError.connectFailed(e) }
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: __suseconds_t((timeout - floor(timeout)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &addr.sin_addr)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { let e = errno; Glibc.close(fd); throw HTTPTestClientError.connectFailed(e) }
    }

    deinit { close() }

    private var isClosed = false
    /// Closes the socket (idempotent).
    func close() { if !isClosed { isClosed = true; Glibc.close(fd) } }

    /// Writes raw bytes.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { throw HTTPTestClientError.closed }
            offset += n
        }
    }

    /// Writes a raw string.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Builds request bytes with Host, Content-Length (when a body is given) and the given headers.
    static func requestBytes(_ method: String, _ target: String, headers: [(String, String)] = [],
                             body: [UInt8] = []) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1\r\n" }
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        let chunked = headers.contains { $0.0.lowercased() == "transfer-encoding" }
        if !chunked && (!body.isEmpty || ["POST", "PUT", "PATCH"].contains(method))
            && !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Sends one request and reads its response.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                 body: [UInt8] = []) throws -> TestResponse {
        try send(Self.requestBytes(method, target, headers: headers, body: body))
        return try readResponse(isHead: method == "HEAD")
    }

    /// Convenience with a string body.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                 body: String) throws -> TestResponse {
        try request(method, target, headers: headers, body: Array(body.utf8))
    }

    /// True when the server closed the connection (read returns 0) within the receive time-out.
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { throw HTTPTestClientError.closed }
        if n < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? HTTPTestClientError.timeout : HTTPTestClientError.closed }
        buffer.append(contentsOf: chunk[0..<n])
    }

    func readLine() throws -> String {
        while true {
            if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<i])
                buffer.removeFirst(i + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    func readExactly(_ n: Int) throws -> [UInt8] {
        while buffer.count < n { try fill() }
        let out = Array(buffer[..<n])
        buffer.removeFirst(n)
        return out
    }

    /// Reads one response (skipping interim 1xx unless `returnInterim`).
    func readResponse(isHead: Bool = false, returnInterim: Bool = false) throws -> TestResponse {
        while true {
            let statusLine = try readLine()
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let status = Int(parts[1]) else { throw HTTPTestClientError.malformed(statusLine) }
            var headers: [(String, String)] = []
            while true {
                let line = try readLine()
                if line.isEmpty { break }
                guard let colon = line.firstIndex(of: ":") else { throw HTTPTestClientError.malformed(line) }
                headers.append((String(line[..<colon]),
                                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
            var response = TestResponse(status: status, reason: parts.count > 2 ? String(parts[2]) : "",
                                        headers: headers, body: [])
            if status < 200 { if returnInterim { return response }; continue }
            if isHead || status == 204 || status == 304 { return response }
            if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
                var body: [UInt8] = []
                while true {
                    let sizeLine = try readLine()
                    let hex = sizeLine.split(separator: ";").first.map(String.init) ?? ""
                    guard let size = Int(hex.trimmingCharacters(in: .whitespaces), radix: 16) else {
                        throw HTTPTestClientError.malformed(sizeLine)
                    }
                    if size == 0 { while try !readLine().isEmpty {}; break }
                    body += try readExactly(size)
                    _ = try readLine()
                }
                response.body = body
            } else if let len = response.header("content-length").flatMap({ Int($0) }) {
                response.body = try readExactly(len)
            } else {
                while true { do { try fill() } catch HTTPTestClientError.closed { break } }
                response.body = buffer
                buffer.removeAll()
            }
            return response
        }
    }
}
