import XCTest
import Logging
import Core
import HTTP
import Storage
@testable import ParseAPI

/// A store whose every call fails the way a broken disk would, with internals in the message.
final class FailingStore: ParseStore {
    let failure = StorageError.ioError("disk I/O error in /var/lib/quartet/quartet.db: SELECT * FROM parse_objects")
    func read<T>(_ body: (any ParseTransaction) throws -> T) throws -> T { throw failure }
    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T) throws -> T { throw failure }
    func write<T: Sendable>(_ body: @escaping @Sendable (any ParseTransaction) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void) { completion(.failure(failure)) }
    func addFile(_ record: FileRecord, blobs: BlobStore) throws { throw failure }
    func removeFile(_ name: String, blobs: BlobStore) throws -> Bool { throw failure }
    func refreshStatistics() throws { throw failure }
}

/// PA-018: an internal failure answers the generic Parse error and leaks nothing.
final class FaultInjectionTests: XCTestCase {
    func request(_ method: HTTPMethod, _ target: String, body: String = "") throws -> HTTPResponse {
        var logger = Logger(label: "fault")
        logger.logLevel = .critical
        let app = ParseApp(config: ParseConfig(), store: FailingStore(), blobs: nil, logger: logger, metrics: MetricsRegistry(),
                           appId: "app", masterKeyDigest: Crypto.sha256(Array("mk".utf8)))
        var headers = HTTPHeaders()
        headers.add("X-Parse-Application-Id", "app")
        let req = try HTTPRequest(method: method, target: target, headers: headers,
                                  body: body.isEmpty ? .empty : .bytes(Array(body.utf8)))
        return app.handle(req, mount: "/parse")
    }

    func bodyText(_ r: HTTPResponse) -> String {
        if case .bytes(let b) = r.body { return String(decoding: b, as: UTF8.self) }
        return ""
    }

    func test_PA_018_internal_failure_is_generic() throws {
        for (method, target, body) in [(HTTPMethod.get, "/parse/classes/Recipe", ""), (.post, "/parse/classes/Recipe", #"{"a":1}"#),
                                       (.get, "/parse/classes/Recipe/abc", ""), (.post, "/parse/login", #"{"username":"a","password":"b"}"#)] {
            let r = try request(method, target, body: body)
            XCTAssertEqual(r.status.code, 500, target)
            XCTAssertEqual(bodyText(r), #"{"code":1,"error":"Internal server error."}"#)
            for leak in ["SQLITE", "sqlite3", "SELECT", "/var/", "disk"] { XCTAssertFalse(bodyText(r).contains(leak)) }
        }
    }
}
