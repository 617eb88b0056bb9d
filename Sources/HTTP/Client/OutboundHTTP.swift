import Foundation
import COpenSSL
import Glibc

/// Why an outbound request failed.
public enum OutboundHTTPError: Error, Sendable, Equatable {
    /// The URL is not `http://host[:port]/...` or `https://...`.
    case invalidURL
    /// The host name did not resolve.
    case unresolvable
    /// Connecting, the TLS handshake (certificate checked against the host) or the exchange failed.
    case connectionFailed(String)
    /// No complete answer within the time limit.
    case timedOut
    /// The answer is not HTTP/1.x, or is larger than allowed.
    case malformedResponse
}

/// A response to an outbound request.
public struct OutboundResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in arrival order, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body (de-chunked).
    public var body: [UInt8]

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A small blocking HTTP/1.1 client for the few calls the daemon makes to other servers (social
/// providers verifying a token): one request per connection (`Connection: close`), `https` through
/// OpenSSL with the system trust store and host-name verification, a deadline over the whole exchange
/// and a bound on the answer's size. It runs on the calling worker thread: callers keep the time limit
/// short.
public enum OutboundHTTP {
    /// Sends `method url` with `headers` and `body`; the answer must arrive within `timeoutSeconds` and hold
    /// at most `maxResponseBytes`.
    public static func request(_ method: String, _ url: String, headers: [(String, String)] = [], body: [UInt8] = [],
                               timeoutSeconds: Int = 10, maxResponseBytes: Int = 1 << 20) throws -> OutboundResponse {
        let target = try OutboundURL(url)
        let deadline = monotonicSeconds() + Double(timeoutSeconds)
        let fd = try connect(host: target.host, port: target.port, deadline: deadline)
        defer { close(fd) }
        var transport: any OutboundTransport = PlainTransport(fd: fd)
        if target.tls { transport = try TLSClientTransport(fd: fd, host: target.host) }
        var head = "\(method) \(target.pathAndQuery) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nConnection: close\r\n"
        head += "User-Agent: quartet\r\nAccept: */*\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try transport.writeAll(Array(head.utf8) + body, deadline: deadline)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = try transport.read(&buffer, deadline: deadline)
            if n == 0 { break }
            received.append(contentsOf: buffer[0..<n])
            guard received.count <= maxResponseBytes else { throw OutboundHTTPError.malformedResponse }
        }
        return try parseResponse(received)
    }

    /// Parses a whole HTTP/1.x answer (head, then a body by `Content-Length`, chunked, or to the end).
    public static func parseResponse(_ bytes: [UInt8]) throws -> OutboundResponse {
        try OutboundResponseParser.parse(bytes)
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Milliseconds left before `deadline`, at least 1; throws once it passed.
    static func remainingMillis(_ deadline: Double) throws -> Int32 {
        let left = deadline - monotonicSeconds()
        guard left > 0 else { throw OutboundHTTPError.timedOut }
        return Int32(min(max(left * 1000, 1), 3_600_000))
    }

    /// Waits until `fd` is readable (or writable).
    static func wait(_ fd: Int32, writable: Bool, deadline: Double) throws {
        var pfd = pollfd(fd: fd, events: Int16(writable ? POLLOUT : POLLIN), revents: 0)
        while true {
            let r = poll(&pfd, 1, try remainingMillis(deadline))
            if r > 0 { return }
            if r == 0 { throw OutboundHTTPError.timedOut }
            if errno != EINTR { throw OutboundHTTPError.connectionFailed("poll failed") }
        }
    }

    /// A non-blocking socket connected to the first address of `host` that answers.
    static func connect(host: String, port: Int, deadline: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw OutboundHTTPError.unresolvable
        }
        defer { freeaddrinfo(first) }
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            next = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd < 0 { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            if errno == EINPROGRESS {
                do {
                    try wait(fd, writable: true, deadline: deadline)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0 { return fd }
                } catch OutboundHTTPError.timedOut {
                    close(fd)
                    throw OutboundHTTPError.timedOut
                }
            }
            close(fd)
        }
        throw OutboundHTTPError.connectionFailed("cannot connect to \(host):\(port)")
    }
}

/// An `http`/`https` URL split for a request.
struct OutboundURL {
    var tls: Bool
    var host: String
    var port: Int
    /// `Host` header value (with the port when it is not the scheme's).
    var hostHeader: String
    var pathAndQuery: String

    init(_ url: String) throws {
        let rest: Substring
        if url.hasPrefix("http://") {
            tls = false
            rest = url.dropFirst(7)
        } else if url.hasPrefix("https://") {
            tls = true
            rest = url.dropFirst(8)
        } else {
            throw OutboundHTTPError.invalidURL
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.isEmpty, !authority.contains("@"),
              path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw OutboundHTTPError.invalidURL }
        let defaultPort = tls ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw OutboundHTTPError.invalidURL }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            port = after.hasPrefix(":") ? (Int(after.dropFirst()) ?? -1) : defaultPort
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = Int(authority[authority.index(after: colon)...]) ?? -1
        } else {
            host = String(authority)
            port = defaultPort
        }
        guard !host.isEmpty, (1...65535).contains(port),
              host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw OutboundHTTPError.invalidURL
        }
        hostHeader = String(authority)
        pathAndQuery = path
    }
}

/// Parses a whole HTTP/1.x answer read until the server closed the connection.
enum OutboundResponseParser {
    static func parse(_ bytes: [UInt8]) throws -> OutboundResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = find(separator, in: bytes, from: 0) else { throw OutboundHTTPError.malformedResponse }
        let head = String(decoding: bytes[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { throw OutboundHTTPError.malformedResponse }
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
              (100...599).contains(status) else { throw OutboundHTTPError.malformedResponse }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw OutboundHTTPError.malformedResponse }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = OutboundResponse(status: status, headers: headers, body: [])
        let rest = Array(bytes[(headEnd + 4)...])
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            response.body = try dechunk(rest)
        } else if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0, length <= rest.count else { throw OutboundHTTPError.malformedResponse }
            response.body = Array(rest[0..<length])
        } else {
            response.body = rest
        }
        return response
    }

    static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: i) else { throw OutboundHTTPError.malformedResponse }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw OutboundHTTPError.malformedResponse
            }
            i = lineEnd + 2
            if size == 0 { return out }
            guard size <= bytes.count - i else { throw OutboundHTTPError.malformedResponse }
            out.append(contentsOf: bytes[i..<(i + size)])
            i += size + 2
            guard i <= bytes.count else { throw OutboundHTTPError.malformedResponse }
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var i = start
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
