import Foundation
import XCTest
import Core

/// Mails through a relay that speaks TLS (§8, `backbeam.smtp.security` `tls` and `starttls`): the relay's
/// certificate is issued by a throwaway test CA that the server trusts only through `server.outboundCaFile`.
/// A mail goes out only through TLS to a certificate that is trusted and names the relay's host; otherwise the
/// delivery fails (logged, the outbox row `failed` after five attempts) and the relay never sees the login,
/// the envelope or the message. One server per class, with a fake relay on loopback whose certificate and
/// STARTTLS offer each test sets.
class BackbeamMailTLSTestCase: BackbeamTestCase {
    nonisolated(unsafe) static var relays: [String: (relay: FakeSMTPServer, pki: TestPKI)] = [:]
    /// How the class's relay speaks TLS.
    class var mode: FakeSMTPServer.TLSMode { .implicit }
    static let credentials = "\0relay-user\0relay-pass"

    var relay: FakeSMTPServer {
        // Set by setUpWithError before any test runs.
        Self.relays[String(describing: type(of: self))]!.relay
    }

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if Self.shared[key] == nil {
            let pki = try TestPKI()
            let relay = try FakeSMTPServer(tls: Self.mode, pki: pki)
            Self.relays[key] = (relay, pki)
            let security = Self.mode == .implicit ? "tls" : "starttls"
            let smtp = """
                {"host":"localhost","port":\(relay.port),"security":"\(security)","user":"relay-user","password":"relay-pass",\
                "from":"noreply@example.com","retrySeconds":0,"timeoutSeconds":5}
                """
            Self.shared[key] = try BackbeamServer(environment: ["QUARTET_BACKBEAM_SMTP": smtp, "QUARTET_SERVER_OUTBOUND_CA_FILE": pki.ca])
        }
        try super.setUpWithError()
        relay.certificate = "localhost"
        relay.offersStartTLS = true
    }

    override class func tearDown() {
        let key = String(describing: self)
        relays[key]?.relay.stop()
        relays[key]?.pki.remove()
        relays[key] = nil
        super.tearDown()
    }

    /// Asks for a lost-password mail to a new user; returns the address, the settled outbox state and the mail.
    func requestMail(file: StaticString = #filePath, line: UInt = #line) throws -> (email: String, state: String?, mail: JSON?) {
        let email = "m\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try signup(email, "secret1")
        let r = try api.send("POST", "/user/email/lostpassword", p(("email", email)))
        XCTAssertEqual(r.apiStatus, "Success", "delivery failures are never the client's", file: file, line: line)
        let (state, mail) = try outboxState(email)
        return (email, state, mail)
    }

    /// The server's log lines about failed deliveries of `mail`.
    func failureLog(_ mail: JSON?) -> [String] {
        let id = mail?["id"]?.stringValue ?? "-"
        return bb.server.output.split(separator: "\n").map(String.init)
            .filter { $0.contains("backbeam mail delivery failed") && $0.contains("outboxID=\(id)") }
    }

    /// Delivery failed after five attempts, the relay received no message for `email`, and every logged
    /// failure names `reason`.
    func assertRefused(_ email: String, _ state: String?, _ mail: JSON?, reason: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(state, "failed", file: file, line: line)
        XCTAssertEqual(mail?["attempts"]?.int64Value, 5, file: file, line: line)
        XCTAssertFalse(relay.messages.contains { $0.to == "<\(email)>" }, file: file, line: line)
        let log = failureLog(mail)
        XCTAssertEqual(log.count, 5, bb.server.output.suffix(2000).description, file: file, line: line)
        XCTAssertTrue(log.allSatisfy { $0.contains(reason) }, log.joined(separator: "\n"), file: file, line: line)
    }
}

/// `security: tls`: TLS from the first byte (port 465 style).
final class BackbeamMailImplicitTLSTests: BackbeamMailTLSTestCase {
    override class var mode: FakeSMTPServer.TLSMode { .implicit }

    func testMailIsDeliveredOverTLS() throws {
        let (email, state, mail) = try requestMail()
        XCTAssertEqual(state, "sent")
        let message = try XCTUnwrap(relay.messages.last { $0.to == "<\(email)>" })
        XCTAssertTrue(message.overTLS)
        XCTAssertEqual(message.auth, Self.credentials)
        let code = try XCTUnwrap(mail.flatMap(Self.code(in:)))
        let body = message.data.components(separatedBy: "\n\n").dropFirst().joined().replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(String(decoding: Base64.decode(body) ?? [], as: UTF8.self).contains(code))
        XCTAssertEqual(relay.commandsInClear, [], "nothing travels in clear")
    }

    func testCertificateOfAnUntrustedCAIsRefused() throws {
        relay.certificate = "untrusted"
        let failures = relay.handshakeFailures
        let (email, state, mail) = try requestMail()
        assertRefused(email, state, mail, reason: "TLS certificate not trusted: unable to get local issuer certificate")
        // The relay counts a failed handshake when its side ends, possibly just after the mailer gave up.
        let deadline = Date().addingTimeInterval(5)
        while relay.handshakeFailures - failures < 5, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(relay.handshakeFailures - failures, 5)
        XCTAssertEqual(relay.commandsInClear, [])
    }

    func testCertificateForAnotherHostIsRefused() throws {
        relay.certificate = "wrong-host"
        let (email, state, mail) = try requestMail()
        assertRefused(email, state, mail, reason: "TLS certificate not trusted: hostname mismatch")
        XCTAssertEqual(relay.commandsInClear, [])
    }
}

/// `security: starttls`: plain text upgraded with STARTTLS before anything but EHLO (port 587 style).
final class BackbeamMailStartTLSTests: BackbeamMailTLSTestCase {
    override class var mode: FakeSMTPServer.TLSMode { .startTLS }

    /// The commands the relay received in clear while `body` ran.
    func commandsInClear(during body: () throws -> Void) rethrows -> [String] {
        let before = relay.commandsInClear.count
        try body()
        return Array(relay.commandsInClear.dropFirst(before))
    }

    func testMailIsDeliveredAfterSTARTTLS() throws {
        var result: (email: String, state: String?, mail: JSON?) = ("", nil, nil)
        let clear = try commandsInClear { result = try requestMail() }
        XCTAssertEqual(result.state, "sent")
        XCTAssertEqual(clear, ["EHLO quartet", "STARTTLS"])
        let message = try XCTUnwrap(relay.messages.last { $0.to == "<\(result.email)>" })
        XCTAssertTrue(message.overTLS)
        XCTAssertEqual(message.auth, Self.credentials)
    }

    /// A relay (or someone on the path stripping the offer) without STARTTLS gets no login and no mail.
    func testRelayWithoutSTARTTLSGetsNothingInClear() throws {
        relay.offersStartTLS = false
        var result: (email: String, state: String?, mail: JSON?) = ("", nil, nil)
        let clear = try commandsInClear { result = try requestMail() }
        assertRefused(result.email, result.state, result.mail, reason: "the relay does not offer STARTTLS")
        XCTAssertEqual(clear, Array(repeating: "EHLO quartet", count: 5))
    }

    func testCertificateOfAnUntrustedCAIsRefused() throws {
        relay.certificate = "untrusted"
        var result: (email: String, state: String?, mail: JSON?) = ("", nil, nil)
        let clear = try commandsInClear { result = try requestMail() }
        assertRefused(result.email, result.state, result.mail, reason: "TLS certificate not trusted: unable to get local issuer certificate")
        XCTAssertEqual(Set(clear), ["EHLO quartet", "STARTTLS"], "the login and the mail wait for TLS")
    }

    func testCertificateForAnotherHostIsRefused() throws {
        relay.certificate = "wrong-host"
        var result: (email: String, state: String?, mail: JSON?) = ("", nil, nil)
        let clear = try commandsInClear { result = try requestMail() }
        assertRefused(result.email, result.state, result.mail, reason: "TLS certificate not trusted: hostname mismatch")
        XCTAssertEqual(Set(clear), ["EHLO quartet", "STARTTLS"])
    }
}
