import COpenSSL
import Foundation
import XCTest
@testable import HTTP

/// The outbound client's TLS against local TLS endpoints with certificates of a test CA: trusted only through
/// `OutboundTLS.trust(additionalCAFile:)`, checked against the host name or address, TLS 1.2 at least, and
/// STARTTLS that never takes a byte sent before the handshake as protected.
final class OutboundTLSTests: XCTestCase {
    var pki: TestPKI!

    override func setUpWithError() throws {
        pki = try TestPKI()
        try OutboundTLS.trust(additionalCAFile: pki.ca)
    }

    override func tearDownWithError() throws {
        try OutboundTLS.trust(additionalCAFile: nil)
        pki?.remove()
    }

    /// An HTTPS server presenting leaf certificate `name`.
    func httpsServer(_ name: String) throws -> TestServer {
        let leaf = pki.leaf(name)
        return try TestServer(configure: { $0.tls = TLSConfiguration(certificatePath: leaf.certificate, privateKeyPath: leaf.key) }) { router in
            router.group("").get("/hello") { request in .response(.text(.ok, "hello tls=\(request.isTLS)")) }
        }
    }

    /// Asserts that `body` fails with a connection failure whose text contains `reason`.
    func assertRefused(_ reason: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case OutboundHTTPError.connectionFailed(let text) = error else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertTrue(text.contains(reason), text, file: file, line: line)
        }
    }

    func testHTTPSToATrustedCertificateByName() throws {
        let server = try httpsServer("localhost")
        let response = try OutboundHTTP.request("GET", "https://localhost:\(server.port)/hello", timeoutSeconds: 5)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello tls=true")
    }

    func testTheTestCAIsNotTrustedWithoutTheExtraFile() throws {
        let server = try httpsServer("localhost")
        try OutboundTLS.trust(additionalCAFile: nil)
        assertRefused("TLS certificate not trusted: unable to get local issuer certificate") {
            _ = try OutboundHTTP.request("GET", "https://localhost:\(server.port)/hello", timeoutSeconds: 5)
        }
    }

    func testCertificateOfAnotherCAIsRefused() throws {
        let server = try httpsServer("untrusted")
        assertRefused("TLS certificate not trusted") {
            _ = try OutboundHTTP.request("GET", "https://localhost:\(server.port)/hello", timeoutSeconds: 5)
        }
    }

    func testCertificateForAnotherNameIsRefused() throws {
        let server = try httpsServer("wrong-host")
        assertRefused("TLS certificate not trusted: hostname mismatch") {
            _ = try OutboundHTTP.request("GET", "https://localhost:\(server.port)/hello", timeoutSeconds: 5)
        }
    }

    /// An address in the URL is checked against the certificate's IP addresses, not its DNS names.
    func testAddressIsCheckedAgainstTheCertificatesAddresses() throws {
        let withAddress = try httpsServer("localhost")
        let response = try OutboundHTTP.request("GET", "https://127.0.0.1:\(withAddress.port)/hello", timeoutSeconds: 5)
        XCTAssertEqual(response.status, 200)
        let namesOnly = try httpsServer("dns-only")
        assertRefused("TLS certificate not trusted") {
            _ = try OutboundHTTP.request("GET", "https://127.0.0.1:\(namesOnly.port)/hello", timeoutSeconds: 5)
        }
    }

    func testExtraCAFileMustHoldCertificates() throws {
        XCTAssertThrowsError(try OutboundTLS.trust(additionalCAFile: pki.directory + "/missing.pem"))
        let notPEM = pki.directory + "/not.pem"
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        XCTAssertThrowsError(try OutboundTLS.trust(additionalCAFile: notPEM))
        XCTAssertThrowsError(try OutboundTLS.trust(additionalCAFile: pki.leaf("localhost").key))
    }

    func testSessionsRefuseProtocolsBelowTLS12() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let session = try TLSClientTransport(fd: fds[0], host: "localhost")
        XCTAssertEqual(session.minimumProtocolVersion, Int(TLS1_2_VERSION))
    }

    func testStartTLSUpgradesTheConnection() throws {
        let leaf = pki.leaf("localhost")
        let peer = try StartTLSPeer(certificate: leaf.certificate, key: leaf.key)
        let connection = try OutboundConnection(host: "localhost", port: peer.port, tls: false, timeoutSeconds: 5)
        XCTAssertEqual(try connection.readLine(), "220 ready")
        try connection.write(Array("STARTTLS\r\n".utf8))
        XCTAssertEqual(try connection.readLine(), "220 go")
        try connection.startTLS()
        try connection.write(Array("secret\r\n".utf8))
        XCTAssertEqual(try connection.readLine(), "PONG secret")
    }

    func testStartTLSRefusesAnUntrustedCertificate() throws {
        let leaf = pki.leaf("untrusted")
        let peer = try StartTLSPeer(certificate: leaf.certificate, key: leaf.key)
        let connection = try OutboundConnection(host: "localhost", port: peer.port, tls: false, timeoutSeconds: 5)
        _ = try connection.readLine()
        try connection.write(Array("STARTTLS\r\n".utf8))
        _ = try connection.readLine()
        try connection.startTLS()
        assertRefused("TLS certificate not trusted") { try connection.write(Array("secret\r\n".utf8)) }
    }

    /// Bytes that arrived with the answer to STARTTLS came before the handshake: taking them as the first
    /// protected reply would let anyone on the path answer for the server (the STARTTLS injection flaw).
    func testStartTLSRefusesBytesSentBeforeTheHandshake() throws {
        let leaf = pki.leaf("localhost")
        let peer = try StartTLSPeer(certificate: leaf.certificate, key: leaf.key, injectAfterGo: true)
        let connection = try OutboundConnection(host: "localhost", port: peer.port, tls: false, timeoutSeconds: 5)
        _ = try connection.readLine()
        try connection.write(Array("STARTTLS\r\n".utf8))
        XCTAssertEqual(try connection.readLine(), "220 go")
        XCTAssertThrowsError(try connection.startTLS()) { XCTAssertEqual($0 as? OutboundHTTPError, .malformedResponse) }
    }

    func testImplicitTLSConnection() throws {
        let server = try httpsServer("localhost")
        let connection = try OutboundConnection(host: "localhost", port: server.port, tls: true, timeoutSeconds: 5)
        try connection.write(Array("GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readLine(), "HTTP/1.1 200 OK")
    }
}

extension OutboundTLSTests {
    /// A server that ends the connection without close_notify after a complete answer: the answer counts
    /// (its length says it is whole), as it does over plain HTTP.
    func testAnswerEndedWithoutCloseNotify() throws {
        let leaf = pki.leaf("localhost")
        let peer = try AbruptHTTPSPeer(certificate: leaf.certificate, key: leaf.key,
                                       response: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        let response = try OutboundHTTP.request("GET", "https://localhost:\(peer.port)/", timeoutSeconds: 5)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Array("hello".utf8))
    }

    /// Cut short without close_notify, an answer shorter than its length is still refused.
    func testTruncatedAnswerWithoutCloseNotifyIsRefused() throws {
        let leaf = pki.leaf("localhost")
        let peer = try AbruptHTTPSPeer(certificate: leaf.certificate, key: leaf.key,
                                       response: "HTTP/1.1 200 OK\r\nContent-Length: 50\r\nConnection: close\r\n\r\nhello")
        XCTAssertThrowsError(try OutboundHTTP.request("GET", "https://localhost:\(peer.port)/", timeoutSeconds: 5)) {
            XCTAssertEqual($0 as? OutboundHTTPError, .malformedResponse)
        }
    }
}
