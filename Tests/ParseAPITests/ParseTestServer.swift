import Foundation
import XCTest
import Logging
import Core
import HTTP
import Storage
@testable import ParseAPI

/// An in-process Parse API: real Storage (temporary directory, repository migrations), BlobStore, Router
/// and HTTPServer on an ephemeral loopback port.
final class ParseTestServer: @unchecked Sendable {
    static let appId = "testAppId"
    static let masterKey = "testMasterKey"

    let directory: String
    let storage: Storage
    let server: HTTPServer
    let service: ParseService
    let port: Int

    init(config extra: JSONObject = [:]) throws {
        directory = NSTemporaryDirectory() + "parse-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "parse-test")
        logger.logLevel = .error
        storage = try Storage(options: StorageOptions(path: directory + "/quartet.db"), logger: logger)
        let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Migrations").path
        try Migrator.migrate(storage, migrations: try Migrator.load(directory: migrations))
        let blobs = try BlobStore(directory: directory + "/blobs", storage: storage)
        var config: JSONObject = ["appId": .string(Self.appId), "masterKey": .string(Self.masterKey)]
        for (k, v) in extra { config[k] = v }
        service = try ParseService(config: config, storage: storage, blobs: blobs, logger: logger, metrics: MetricsRegistry())
        let router = Router()
        service.mount(on: router)
        var sc = ServerConfiguration()
        sc.port = 0
        sc.accessLog = false
        sc.workerThreads = 16
        sc.tempDirectory = directory
        server = HTTPServer(configuration: sc, router: router, logger: logger, observer: nil)
        port = try server.start()
    }

    func stop() {
        server.shutdown()
        storage.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Headers with the application id (and master key when asked).
    static func headers(master: Bool = false, session: String? = nil, extra: [(String, String)] = []) -> [(String, String)] {
        var h = [("X-Parse-Application-Id", appId)]
        if master { h.append(("X-Parse-Master-Key", masterKey)) }
        if let session { h.append(("X-Parse-Session-Token", session)) }
        return h + extra
    }

    func request(_ method: String, _ target: String, headers: [(String, String)] = ParseTestServer.headers(),
                 body: String? = nil) throws -> TestReply {
        let client = try LoopbackClient(port: port)
        return try client.send(method, target, headers: headers, body: body.map { Array($0.utf8) } ?? [])
    }

    /// A request that must answer `status`; returns the parsed JSON body.
    @discardableResult
    func json(_ method: String, _ target: String, headers: [(String, String)] = ParseTestServer.headers(),
              body: String? = nil, status: Int, file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        let r = try request(method, target, headers: headers, body: body)
        XCTAssertEqual(r.status, status, "\(method) \(target): \(r.text)", file: file, line: line)
        return (try? JSONParser.parse(r.body)) ?? .null
    }
}

/// A response read off the socket.
struct TestReply {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSON { (try? JSONParser.parse(body)) ?? .null }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}
