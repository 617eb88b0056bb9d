import COpenSSL
import Foundation
import Glibc
import XCTest
@testable import HTTP

final class ServerTLSTests: XCTestCase {
    /// A throw-away certificate for localhost, issued by a test CA (`TestPKI`).
    private func makeCertificate() throws -> (certificate: String, key: String, directory: String) {
        let pki = try TestPKI()
        let leaf = pki.leaf("localhost")
        return (leaf.certificate, leaf.key, pki.directory)
    }

    /// Sends `request` over TLS and returns everything the server sent until it closed.
    private func tlsExchange(port: Int, request: String) throws -> String {
        let client = try RawClient(port: port)
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw RawClient.ClientError.io("ctx") }
        defer { SSL_CTX_free(context) }
        guard let ssl = SSL_new(context) else { throw RawClient.ClientError.io("ssl") }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, client.fd)
        guard SSL_connect(ssl) == 1 else { throw RawClient.ClientError.io("handshake") }
        let bytes = Array(request.utf8)
        let written = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        XCTAssertEqual(Int(written), bytes.count)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count <= 0 { break }
            received += chunk[0..<Int(count)]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func testTLSRoundTripOnTheMainPort() throws {
        let files = try makeCertificate()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        let server = try TestServer(configure: { configuration in
            configuration.tls = TLSConfiguration(certificatePath: files.certificate, privateKeyPath: files.key)
        }) { router in
            router.group("").get("/secure") { request in .response(.text(.ok, "tls=\(request.isTLS)")) }
        }
        let text = try tlsExchange(port: server.port,
                                   request: "GET /secure HTTP/1.1\r\nHost: a\r\n\r\nGET /secure HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertEqual(text.components(separatedBy: "tls=true").count, 3)
    }

    func testTLSOnASecondPortKeepsPlainHTTPOnTheMainOne() throws {
        let files = try makeCertificate()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        let server = try TestServer(configure: { configuration in
            configuration.tls = TLSConfiguration(certificatePath: files.certificate, privateKeyPath: files.key, port: 0)
        }) { router in
            router.group("").get("/secure") { request in .response(.text(.ok, "tls=\(request.isTLS)")) }
        }
        let ports = server.server.boundPorts
        XCTAssertEqual(ports.count, 2)
        let plain = try server.client()
        XCTAssertEqual(try plain.request("GET", "/secure").text, "tls=false")
        let text = try tlsExchange(port: ports[1], request: "GET /secure HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(text.hasSuffix("tls=true"), text)
    }

    func testMissingCertificateFailsToStart() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.tls = TLSConfiguration(certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
        let server = HTTPServer(configuration: configuration, router: Router(), logger: .init(label: "test"))
        XCTAssertThrowsError(try server.start())
    }
}
