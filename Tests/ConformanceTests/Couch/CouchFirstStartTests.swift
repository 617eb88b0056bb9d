import Foundation
import XCTest
import Core

/// Checklist CD-015: the generated server admin password (spec §2.7.1).
final class CouchFirstStartTests: XCTestCase {
    func test_CD_015_generatedPasswordIsPrintedOnceAndStoredOnlyHashed() throws {
        let first = try TestServer()
        defer { first.stop() }
        guard let range = first.output.range(of: "(shown once): ") else {
            return XCTFail("no generated password in: \(first.output)")
        }
        let password = String(first.output[range.upperBound...].prefix { !$0.isWhitespace })
        XCTAssertGreaterThanOrEqual(password.count, 24)
        let auth = ("Authorization", "Basic " + Data("admin:\(password)".utf8).base64EncodedString())
        XCTAssertEqual(try first.request("GET", "/couch/_all_dbs", headers: [auth]).status, 200)
        // Neither the database files nor anything else the server wrote holds it, apart from that one line.
        let files = try FileManager.default.subpathsOfDirectory(atPath: first.dataDirectory.path)
        for file in files {
            let path = first.dataDirectory.appendingPathComponent(file).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            XCTAssertNil(data.range(of: Data(password.utf8)), "\(file) holds the password")
        }
        XCTAssertEqual(first.output.components(separatedBy: password).count, 2)
        first.stop(removeData: false)
        let second = try TestServer(dataDirectory: first.dataDirectory)
        defer { second.stop() }
        XCTAssertFalse(second.output.contains("shown once"), second.output)
        XCTAssertEqual(try second.request("GET", "/couch/_all_dbs", headers: [auth]).status, 200)
    }
}
