import Foundation
import Glibc
import Logging
import XCTest
@testable import HTTP

/// A response as read off the wire by `RawClient`.
struct WireResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking loopback client speaking raw HTTP/1.1, so tests control every byte.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.io("socket") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw ClientError.io("connect")
        }
    }

    deinit { close(fd) }

    enum ClientError: Error { case io(String), closed, malformed(String) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ClientError.io("send") }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; false on EOF or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    func readLine() throws -> String {
        while true {
            if let index = buffer.firstIndex(of: 10), index > 0, buffer[index - 1] == 13 {
                let line = String(decoding: buffer[0..<(index - 1)], as: UTF8.self)
                buffer.removeFirst(index + 1)
                return line
            }
            guard fill() else { throw ClientError.closed }
        }
    }

    func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard fill() else { throw ClientError.closed }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads one response (interim 1xx responses are returned as they come). `head` skips the body.
    func readResponse(head: Bool = false) throws -> WireResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError.malformed(statusLine) }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw ClientError.malformed(line) }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = WireResponse(status: status, headers: headers, body: [])
        if head || status < 200 || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine, radix: 16) else { throw ClientError.malformed(sizeLine) }
                if size == 0 {
                    _ = try readLine()
                    break
                }
                response.body += try readExactly(size)
                _ = try readLine()
            }
        } else {
            while fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Sends a request and reads its response.
    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: String? = nil) throws
        -> WireResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        try send(text)
        return try readResponse(head: method == "HEAD")
    }

    /// True when the server closed the connection (EOF) within the receive timeout.
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}

/// A running server for one test.
final class TestServer {
    let server: HTTPServer
    let port: Int

    init(configure: (inout ServerConfiguration) -> Void = { _ in }, routes: (Router) -> Void) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workerThreads = 4
        configuration.accessLog = false
        configure(&configuration)
        let router = Router()
        routes(router)
        server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "test"),
                            observer: nil)
        port = try server.start()
    }

    func client(timeoutSeconds: Int = 5) throws -> RawClient { try RawClient(port: port, timeoutSeconds: timeoutSeconds) }

    deinit { server.shutdown() }
}

/// Waits until `condition` holds or `seconds` pass.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
