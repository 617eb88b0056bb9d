import Foundation
import XCTest
import Core

/// Social signup against a provider reached over `https://localhost:<port>` (§5.4.6), as the real providers
/// are: its certificate is issued by a throwaway test CA that the server trusts only through
/// `server.outboundCaFile`. A certificate of another CA or for another host name is refused before any
/// request is sent: no user is created and the client gets the provider's error.
final class BackbeamSocialTLSTests: BackbeamTestCase {
    nonisolated(unsafe) static var provider: FakeSocialProvider?
    nonisolated(unsafe) static var pki: TestPKI?
    var fake: FakeSocialProvider { Self.provider! }

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if Self.shared[key] == nil {
            let pki = try TestPKI()
            let provider = try FakeSocialProvider(tls: pki)
            Self.pki = pki
            Self.provider = provider
            let social = "{\"facebook\":{\"url\":\"\(provider.url("/fb/me"))\"},\"github\":{\"url\":\"\(provider.url("/gh/user"))\"}}"
            Self.shared[key] = try BackbeamServer(environment: ["QUARTET_BACKBEAM_SOCIAL": social,
                                                                "QUARTET_SERVER_OUTBOUND_CA_FILE": pki.ca])
        }
        try super.setUpWithError()
        fake.certificate = "localhost"
    }

    override class func tearDown() {
        provider?.stop()
        provider = nil
        pki?.remove()
        pki = nil
        super.tearDown()
    }

    /// A new Facebook id answered by the provider.
    func facebookUser() -> String {
        let id = String(UInt32.random(in: 1...UInt32.max))
        fake.answer("/fb/me", body: "{\"id\":\"\(id)\",\"name\":\"Ana\",\"link\":\"x\"}")
        return id
    }

    func testSignupThroughAnHTTPSProvider() throws {
        XCTAssertTrue(fake.url("/fb/me").hasPrefix("https://localhost:"))
        let fbID = facebookUser()
        let r = try api.send("POST", "/user/facebook/signup", p(("access_token", "t1")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["login_fb_id"]?.stringValue, fbID)
        XCTAssertTrue(fake.requests.contains { $0.target == "/fb/me?access_token=t1" })
        let ghID = Int.random(in: 1...1_000_000_000)
        fake.answer("/gh/user", body: "{\"id\":\(ghID),\"login\":\"ana\"}")
        let g = try api.send("POST", "/user/github/signup", p(("access_token", "g1")))
        XCTAssertEqual(g.status, 201, g.text)
        XCTAssertEqual(g.main?["login_gh_id"], .string(String(ghID)))
        XCTAssertTrue(fake.requests.contains { $0.headers["authorization"] == "token g1" })
    }

    /// The provider's certificate is refused: no request reaches it (the token is never sent), nobody is
    /// signed up, and the server logs why.
    func assertRefused(reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        _ = facebookUser()
        let requests = fake.requests.count, failures = fake.handshakeFailures
        assertError(try api.send("POST", "/user/facebook/signup", p(("access_token", "t1"))), 400, "FacebookError", file: file, line: line)
        assertError(try api.send("POST", "/user/github/signup", p(("access_token", "g1"))), 400, "GitHubError", file: file, line: line)
        XCTAssertEqual(fake.requests.count, requests, "the token never left the server", file: file, line: line)
        // The fake counts a failed handshake when its side of the connection ends, which may come just after
        // the server has answered: wait for it (bounded).
        let deadline = Date().addingTimeInterval(5)
        while fake.handshakeFailures - failures < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(fake.handshakeFailures - failures, 2, file: file, line: line)
        XCTAssertEqual(try api.send("GET", "/data/user")["count"]?.int64Value, 0, file: file, line: line)
        let logged = bb.server.output.split(separator: "\n").filter { $0.contains("backbeam social login refused") && $0.contains(reason) }
        XCTAssertGreaterThanOrEqual(logged.count, 2, bb.server.output.suffix(2000).description, file: file, line: line)
    }

    func testCertificateOfAnUntrustedCAIsRefused() throws {
        fake.certificate = "untrusted"
        try assertRefused(reason: "unable to get local issuer certificate")
    }

    func testCertificateForAnotherHostIsRefused() throws {
        fake.certificate = "wrong-host"
        try assertRefused(reason: "hostname mismatch")
    }
}
