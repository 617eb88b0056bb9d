import Foundation
import Glibc
import Logging
import Core
import Auth
import HTTP
@testable import DatastoreAPI

/// The Datastore API mounted on a real `HTTPServer` on an ephemeral loopback port, over a temporary
/// database: the routes, wire format, parking and wake-ups, without the rest of the daemon.
final class InProcessServer: @unchecked Sendable {
    static let tokenA = "inproc_alice_0000000000000000000000000000000"
    static let tokenB = "inproc_bob_000000000000000000000000000000000"

    let fixture: StoreFixture
    let server: HTTPServer
    let port: Int

    init(configure: (inout DatastoreConfig) -> Void = { _ in }) throws {
        fixture = try StoreFixture()
        var config = DatastoreConfig()
        config.staticTokens = [(Self.tokenA, "alice"), (Self.tokenB, "bob")]
        configure(&config)
        // The server admin "admin" with password "secret" (the tests send `Basic YWRtaW46c2VjcmV0`).
        let admin = ServerAdmin(name: "admin", store: MemoryAdminAccountStore(), hashCost: 4)
        _ = try admin.ensureAccount(configuredPassword: "secret")
        let service = try DatastoreService(config: config, store: fixture.store, changes: fixture.storage.changes,
                                           logger: Logger(label: "test"), metrics: MetricsRegistry(),
                                           serverAdmin: admin)
        let router = Router()
        service.mount(on: router)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.accessLog = false
        configuration.shutdownGrace = .seconds(2)
        server = HTTPServer(configuration: configuration, router: router, logger: Logger(label: "test"), observer: nil)
        port = try server.start()
    }

    deinit { server.shutdown() }

    /// One request on its own connection (`Connection: close`), read to the end.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
                 timeout: Int = 10) throws -> InProcessResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw InProcessError.io }
        defer { close(fd) }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw InProcessError.io }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\n\r\n"
        let bytes = Array((head + body).utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw InProcessError.io }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received.append(contentsOf: chunk[0..<n])
        }
        return try InProcessResponse(received)
    }

    /// A datastore call with a form body (POST) or query (GET) and a bearer token.
    func call(_ endpoint: String, _ params: [(String, String)] = [], token: String? = InProcessServer.tokenA,
              method: String = "POST", prefix: String = "/1/datastores") throws -> InProcessResponse {
        var headers: [(String, String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let form = params.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        if method == "GET" {
            return try request("GET", prefix + "/" + endpoint + (form.isEmpty ? "" : "?" + form), headers: headers, timeout: 60)
        }
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        return try request(method, prefix + "/" + endpoint, headers: headers, body: form, timeout: 60)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-_.~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

enum InProcessError: Error { case io, malformed }

/// Admin accounts in memory: these tests need no `quartet_admin_users` table.
final class MemoryAdminAccountStore: AdminAccountStore, @unchecked Sendable {
    private let lock = NSLock()
    private var hashes: [String: String] = [:]

    func passwordHash(name: String) throws -> String? {
        lock.lock()
        defer { lock.unlock() }
        return hashes[name]
    }

    func setPasswordHash(name: String, hash: String, createdAt: Int64) throws {
        lock.lock()
        defer { lock.unlock() }
        hashes[name] = hash
    }
}

/// A parsed response.
struct InProcessResponse: @unchecked Sendable {
    let status: Int
    let headers: [(String, String)]
    let text: String
    var json: JSON? { try? JSONParser.parse(text) }

    init(_ bytes: [UInt8]) throws {
        let raw = String(decoding: bytes, as: UTF8.self)
        guard let split = raw.range(of: "\r\n\r\n") else { throw InProcessError.malformed }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else { throw InProcessError.malformed }
        status = code
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        text = String(raw[split.upperBound...])
    }

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    subscript(key: String) -> JSON? { json?[key] }
}
