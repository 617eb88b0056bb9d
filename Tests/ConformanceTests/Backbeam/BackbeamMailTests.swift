import Foundation
import XCTest
import Core

/// Mails through an SMTP relay (§8): delivered after the commit with the code in the body, the outbox row
/// marked `sent`; a relay that refuses leaves the row `failed` after five attempts, and the client's answer
/// is unaffected. One server of its own, with `backbeam.smtp` pointing at a fake relay on loopback.
final class BackbeamMailTests: BackbeamTestCase {
    nonisolated(unsafe) static var relay: FakeSMTPServer?
    var smtp: FakeSMTPServer { Self.relay! }

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if Self.shared[key] == nil {
            let relay = try FakeSMTPServer()
            Self.relay = relay
            let settings = "{\"host\":\"127.0.0.1\",\"port\":\(relay.port),\"security\":\"none\",\"from\":\"noreply@example.com\",\"retrySeconds\":0}"
            Self.shared[key] = try BackbeamServer(environment: ["QUARTET_BACKBEAM_SMTP": settings])
        }
        try super.setUpWithError()
    }

    override class func tearDown() {
        relay?.stop()
        relay = nil
        super.tearDown()
    }

    func testLostPasswordMailIsDeliveredBySMTP() throws {
        smtp.refuseRecipients = false
        let email = "s\(UUID().uuidString.prefix(6).lowercased())@example.com"
        try signup(email, "secret1")
        XCTAssertEqual(try api.send("POST", "/user/email/lostpassword", p(("email", email))).status, 200)
        let (state, mail) = try outboxState(email)
        XCTAssertEqual(state, "sent")
        let code = try XCTUnwrap(mail.flatMap(Self.code(in:)))
        let message = try XCTUnwrap(smtp.messages.last { $0.to == "<\(email)>" })
        XCTAssertEqual(message.from, "<noreply@example.com>")
        let parts = message.data.components(separatedBy: "\n\n")
        XCTAssertTrue(parts[0].contains("Subject: Reset your password for \(projectName)"), parts[0])
        XCTAssertTrue(parts[0].contains("Content-Transfer-Encoding: base64"), parts[0])
        let body = String(decoding: Base64.decode(parts.dropFirst().joined().replacingOccurrences(of: "\n", with: "")) ?? [],
                          as: UTF8.self)
        XCTAssertTrue(body.contains(code), body)
        // The code from the relayed mail works.
        XCTAssertEqual(try api.send("POST", "/user/email/verify", p(("code", code))).apiStatus, "Success")
    }

    func testRefusedMailFailsAfterFiveAttempts() throws {
        smtp.refuseRecipients = true
        defer { smtp.refuseRecipients = false }
        let email = "f\(UUID().uuidString.prefix(6).lowercased())@example.com"
        try signup(email, "secret1")
        let before = smtp.refusedCount
        let r = try api.send("POST", "/user/email/lostpassword", p(("email", email)))
        XCTAssertEqual(r.apiStatus, "Success", "delivery failures are never the client's")
        let (state, mail) = try outboxState(email)
        XCTAssertEqual(state, "failed")
        XCTAssertEqual(mail?["attempts"]?.int64Value, 5)
        XCTAssertEqual(smtp.refusedCount - before, 5)
    }
}
