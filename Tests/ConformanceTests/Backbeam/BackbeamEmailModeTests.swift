import Foundation
import XCTest
import Core

/// Email confirmation modes, the stored hash format at the default cost, and login timing (BB-125, BB-128,
/// BB-129, BB-157). One server of its own: projects `mand` (mandatory) and `opt` (optional) declared in the
/// configuration, and the default bcrypt cost 10.
final class BackbeamEmailModeTests: BackbeamTestCase {
    static let mandatory = BBKeys(key: "dev_mand_key", secret: "dev_mand_secret")
    static let optional = BBKeys(key: "dev_opt_key", secret: "dev_opt_secret")

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if Self.shared[key] == nil {
            let extra = """
                ,"mand":{"dev":{"keys":[{"key":"\(Self.mandatory.key)","secret":"\(Self.mandatory.secret)"}]},\
                "email":{"confirmation":"mandatory","from":"noreply@example.com"}},\
                "opt":{"dev":{"keys":[{"key":"\(Self.optional.key)","secret":"\(Self.optional.secret)"}]},\
                "email":{"confirmation":"optional","templates":{"verification":{"subject":"Welcome to {{project}}",\
                "text":"Hi {{email}}, your code: {{code}} ({{link}})"}}}}
                """
            Self.shared[key] = try BackbeamServer(environment: ["QUARTET_BACKBEAM_BCRYPT_COST": "10",
                                                                "QUARTET_BACKBEAM_PUBLIC_URL": "https://quartet.example.com"],
                                                  extraProjects: extra)
        }
        try super.setUpWithError()
    }

    func test_BB_125_storedHashesAreBcryptCost10() throws {
        let id = try signup("ana@example.com", "secret1").id
        let rows = try BackbeamDatabase(bb.server).query("""
            SELECT u.password_hash FROM bb_users u JOIN bb_objects o ON o.seq = u.object WHERE o.id = ?
            """, [.text(id)])
        let hash = try XCTUnwrap(rows.first?[0].string)
        XCTAssertTrue(hash.hasPrefix("$2b$10$"), hash)
        XCTAssertEqual(hash.count, 60)
    }

    func test_BB_128_mandatoryConfirmation() throws {
        let client = bb.client("mand", keys: Self.mandatory)
        let email = "m\(UUID().uuidString.prefix(6).lowercased())@example.com"
        let r = try signup(email, "secret1", client: client)
        XCTAssertEqual(r.apiStatus, "PendingValidation", r.text)
        XCTAssertNotNil(r.main)
        XCTAssertNil(r["auth"])
        let pending = try login(email, "secret1", client: client)
        XCTAssertEqual(pending.status, 200, pending.text)
        XCTAssertEqual(pending.apiStatus, "PendingValidation")
        XCTAssertEqual(pending.id, r.id)
        XCTAssertNotNil(pending.main)
        XCTAssertNil(pending["auth"])
        let mail = try XCTUnwrap(try mails(to: email, project: "mand").first)
        XCTAssertEqual(mail["kind"]?.stringValue, "verification")
        let code = try XCTUnwrap(Self.code(in: mail))
        XCTAssertTrue(mail["text"]?.stringValue?.contains("https://quartet.example.com/backbeam/mand/dev/user/email/confirm?code=\(code)") == true)
        let verified = try client.send("POST", "/user/email/verify", p(("code", code)))
        XCTAssertEqual(verified.apiStatus, "Success", verified.text)
        XCTAssertEqual(verified["auth"]?.stringValue?.count, 64)
        let ok = try login(email, "secret1", client: client)
        XCTAssertEqual(ok.apiStatus, "Success", ok.text)
        XCTAssertNotNil(ok["auth"])
    }

    func test_BB_129_optionalConfirmation() throws {
        let client = bb.client("opt", keys: Self.optional)
        let email = "o\(UUID().uuidString.prefix(6).lowercased())@example.com"
        let r = try signup(email, "secret1", client: client)
        XCTAssertEqual(r.apiStatus, "Success", r.text)
        XCTAssertEqual(r["auth"]?.stringValue?.count, 64)
        let mail = try XCTUnwrap(try mails(to: email, project: "opt").first)
        XCTAssertEqual(mail["kind"]?.stringValue, "verification")
        // The project's own template, placeholders filled in.
        XCTAssertEqual(mail["subject"]?.stringValue, "Welcome to opt")
        let code = try XCTUnwrap(Self.code(in: mail))
        XCTAssertEqual(mail["text"]?.stringValue,
                       "Hi \(email), your code: \(code) (https://quartet.example.com/backbeam/opt/dev/user/email/confirm?code=\(code))")
        XCTAssertEqual(try login(email, "secret1", client: client).apiStatus, "Success")
        // The mailer handled it after the commit (the default mailer logs).
        var state = mail["state"]?.stringValue
        for _ in 0..<50 where state != "logged" {
            usleep(20_000)
            state = try mails(to: email, project: "opt").first?["state"]?.stringValue
        }
        XCTAssertEqual(state, "logged")
    }

    /// Both failures run bcrypt: an unknown email is checked against a dummy hash (§5.4.2). At cost 10 a
    /// bcrypt takes tens of milliseconds, so without the dummy check the unknown-email path would be an order
    /// of magnitude faster; the bound is loose to tolerate a shared machine.
    func test_BB_157_loginTimingDoesNotRevealAccounts() throws {
        try signup("ana@example.com", "secret1")
        func time(_ email: String) throws -> Double {
            let start = Date()
            _ = try login(email, "wrong-password")
            return Date().timeIntervalSince(start)
        }
        _ = try time("warm@example.com")
        // Interleaved, so that load from elsewhere on the machine hits both alike.
        var unknownTimes: [Double] = [], wrongTimes: [Double] = []
        for _ in 0..<9 {
            unknownTimes.append(try time("nobody@example.com"))
            wrongTimes.append(try time("ana@example.com"))
        }
        let unknown = unknownTimes.sorted()[4], wrong = wrongTimes.sorted()[4]
        XCTAssertGreaterThan(unknown / wrong, 0.4, "unknown \(unknown)s, wrong password \(wrong)s")
        XCTAssertLessThan(unknown / wrong, 2.5, "unknown \(unknown)s, wrong password \(wrong)s")
    }
}
