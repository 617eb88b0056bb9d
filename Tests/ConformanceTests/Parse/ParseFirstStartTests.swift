import XCTest
import Core

/// First start without configured keys: generated once, printed once, kept across restarts (spec §1.4).
final class ParseFirstStartTests: XCTestCase {
    func value(_ name: String, in output: String) -> String? {
        guard let r = output.range(of: "Parse \(name) (generated, shown once): ") else { return nil }
        return output[r.upperBound...].split(separator: "\n").first.map(String.init)
    }

    func test_generated_keys_are_printed_once_and_kept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quartet-parse-keys-\(UUID().uuidString)")
        let first = try TestServer(dataDirectory: dir)
        guard try first.request("GET", "/parse/health").status == 200 else {
            first.stop()
            throw XCTSkip("this quartet binary does not mount the Parse API")
        }
        let appId = try XCTUnwrap(value("appId", in: first.output))
        let masterKey = try XCTUnwrap(value("masterKey", in: first.output))
        XCTAssertNotNil(appId.range(of: "^[A-Za-z0-9]{20}$", options: .regularExpression))
        XCTAssertNotNil(masterKey.range(of: "^[A-Za-z0-9]{40}$", options: .regularExpression))
        let master = [("X-Parse-Application-Id", appId), ("X-Parse-Master-Key", masterKey)]
        XCTAssertEqual(try first.request("GET", "/parse/schemas", headers: master).status, 200)
        first.stop(removeData: false)
        let second = try TestServer(dataDirectory: dir)
        defer { second.stop() }
        XCTAssertNil(value("masterKey", in: second.output))
        XCTAssertFalse(second.output.contains(masterKey))
        XCTAssertEqual(try second.request("GET", "/parse/schemas", headers: master).status, 200)
    }
}
