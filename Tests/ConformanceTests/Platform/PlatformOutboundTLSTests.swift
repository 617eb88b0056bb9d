import Foundation
import XCTest

/// `server.outboundCaFile`: the extra CA certificates outbound TLS trusts (exercised by the Backbeam mail and
/// social TLS tests). A path that holds no certificate stops start-up with the key named, instead of failing
/// every delivery later.
final class PlatformOutboundTLSTests: XCTestCase {
    func testAFileWithoutCertificatesStopsStartUp() throws {
        let notPEM = NSTemporaryDirectory() + "not-a-ca-\(UUID().uuidString).pem"
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        defer { try? FileManager.default.removeItem(atPath: notPEM) }
        for path in [notPEM, "/nonexistent/ca.pem"] {
            XCTAssertThrowsError(try TestServer(environment: ["QUARTET_SERVER_OUTBOUND_CA_FILE": path])) { error in
                guard case TestServerError.didNotStart(let output) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(output.contains("server.outboundCaFile"), output)
            }
        }
    }
}
