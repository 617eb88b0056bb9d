import XCTest
import Foundation
import Logging
import Core
import HTTP
@testable import BackbeamAPI

/// The users and push pieces: the service with a fixed clock (the published vector replayed), the user
/// store operations, OAuth 1.0a, provider replies, token change headers and push payloads.
final class UserServiceUnitTests: XCTestCase {
    /// BB-027: vector (a) of §3.6 replayed with the server clock at its `time` passes the signature stage and
    /// reaches the login, which answers `UserNotFound`.
    func testPublishedVectorReachesTheLogin() throws {
        let fixture = try BackbeamStoreFixture()
        var config = BackbeamConfig()
        config.bcryptCost = 4
        config.projects["vector"] = DeclaredProject(name: "vector", keys: [.pro: [KeyPair(
            key: "pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a",
            secret: "pro_d2483cadbe4018c2603d9ba8993663f42134ed455e5e7ffdb7c8573218d323b3cfe7d50d1c6a371f")]])
        let service = try BackbeamService(config: config, store: fixture.store, logger: Logger(label: "test"), serverAdmin: nil,
                                          tempDirectory: fixture.directory.path, clock: { 1_397_166_331_409 })
        func login(signature: String) throws -> JSON {
            let body = "email=user%40example.com&password=foobarbaz&key=pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a"
                + "&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&time=1397166331409&signature=" + signature
            let request = try HTTPRequest(method: .post, target: "/user/email/login",
                                          headers: ["Host": "api-pro-vector.example.com",
                                                    "Content-Type": "application/x-www-form-urlencoded"],
                                          body: .bytes(Array(body.utf8)))
            let response = service.handle(request)
            guard case .bytes(let bytes) = response.body else { return .null }
            return try JSONParser.parse(bytes)
        }
        XCTAssertEqual(try login(signature: "ipzB9%2Fs8GthdC4e6JVv5EwUOm6Y%3D")["status"]?.stringValue, "UserNotFound")
        // The nonce is spent now: the same request again is a replay.
        XCTAssertEqual(try login(signature: "ipzB9%2Fs8GthdC4e6JVv5EwUOm6Y%3D")["status"]?.stringValue, "InvalidNonce")
    }

    func testCodesAreSingleUseAndSetPasswordRevokesSessions() throws {
        let f = try BackbeamStoreFixture()
        let user = try f.store.create(WriteRequest(space: f.space, entity: "user", commands: CommandSet(),
                                                   credentials: CredentialChange(email: .set("Ana@example.com"),
                                                                                 passwordHash: .set("x")),
                                                   grant: UserGrant(sessionHash: "s1"), now: f.tick()))
        XCTAssertEqual(try f.store.sessionUser(space: f.space, tokenHash: "s1", minCreatedAt: nil), user.id)
        let login = try XCTUnwrap(try f.store.userLogin(space: f.space, email: " ANA@example.com "))
        XCTAssertEqual(login.id, user.id)
        XCTAssertFalse(login.verified)
        let mail = MailMessage(recipient: "ana@example.com", kind: "lostpassword", subject: "s", body: "b")
        XCTAssertNil(try f.store.issueCode(space: f.space, email: "nobody@example.com",
                                           code: IssuedCode(hash: "c0", kind: .reset, expiresAt: f.clock + 10_000), mail: mail,
                                           now: f.clock))
        XCTAssertNotNil(try f.store.issueCode(space: f.space, email: "ana@example.com",
                                              code: IssuedCode(hash: "c1", kind: .reset, expiresAt: f.clock + 10_000), mail: mail,
                                              now: f.clock))
        // A newer reset code replaces the unused older one.
        XCTAssertNotNil(try f.store.issueCode(space: f.space, email: "ana@example.com",
                                              code: IssuedCode(hash: "c2", kind: .reset, expiresAt: f.clock + 10_000), mail: mail,
                                              now: f.clock))
        XCTAssertNil(try f.store.redeemCode(space: f.space, CodeRedemption(codeHash: "c1", kinds: [.reset], sessionHash: nil,
                                                                           now: f.clock)))
        // Expired, then of the wrong kind, then right.
        XCTAssertNil(try f.store.redeemCode(space: f.space, CodeRedemption(codeHash: "c2", kinds: [.reset], sessionHash: nil,
                                                                           now: f.clock + 20_000)))
        XCTAssertNil(try f.store.redeemCode(space: f.space, CodeRedemption(codeHash: "c2", kinds: [.verification],
                                                                           sessionHash: nil, now: f.clock)))
        XCTAssertEqual(try f.store.redeemCode(space: f.space, CodeRedemption(codeHash: "c2", kinds: [.reset], passwordHash: "new",
                                                                             sessionHash: "s2", now: f.clock)), user.id)
        XCTAssertNil(try f.store.redeemCode(space: f.space, CodeRedemption(codeHash: "c2", kinds: [.reset], sessionHash: nil,
                                                                           now: f.clock)))
        XCTAssertNil(try f.store.sessionUser(space: f.space, tokenHash: "s1", minCreatedAt: nil))
        XCTAssertEqual(try f.store.sessionUser(space: f.space, tokenHash: "s2", minCreatedAt: nil), user.id)
        let after = try XCTUnwrap(try f.store.userLogin(space: f.space, email: "ana@example.com"))
        XCTAssertEqual(after.passwordHash, "new")
        XCTAssertTrue(after.verified)
        XCTAssertEqual(try f.store.mailOutbox(space: f.space, recipient: "ANA@example.com", limit: 10).count, 2)
    }

    func testSocialLoginCreatesReturnsLinksAndRefuses() throws {
        let f = try BackbeamStoreFixture()
        func social(_ id: String, auth: String?, session: String) throws -> SocialOutcome {
            try f.store.socialLogin(space: f.space, SocialLogin(provider: "fb", providerID: id,
                                                                loginData: [("id", id), ("name", "Ana")], authUser: auth,
                                                                sessionHash: session, now: f.tick(), limits: ModelLimits()))
        }
        guard case .created(let a) = try social("10", auth: nil, session: "s1") else { return XCTFail("not created") }
        XCTAssertEqual(try social("10", auth: nil, session: "s2"), .returning(a))
        let b = try f.create("user", [])
        XCTAssertEqual(try social("10", auth: b.id, session: "s3"), .linkedElsewhere)
        XCTAssertEqual(try social("11", auth: b.id, session: "s4"), .linked(b.id))
        let page = try XCTUnwrap(try f.store.read(space: f.space, entity: "user", id: a, joins: nil, schema: nil, maxJoinWindow: 0))
        let text = String(decoding: page.renderedObjects ?? [], as: UTF8.self)
        XCTAssertTrue(text.contains("\"login_fb_id\":\"10\",\"login_fb_name\":\"Ana\""), text)
        XCTAssertNil(try f.store.sessionUser(space: f.space, tokenHash: "s3", minCreatedAt: nil))
    }

    func testPushSubscriptionsRepointingAndOutbox() throws {
        let f = try BackbeamStoreFixture()
        try f.store.subscribe(space: f.space, gateway: .gcm, token: "old", channels: ["a", "b"], now: 1)
        try f.store.subscribe(space: f.space, gateway: .gcm, token: "new", channels: ["b", "c"], now: 1)
        XCTAssertEqual(try f.store.repointTokens(space: f.space, gateway: .gcm, old: ["old"], new: "new"), 2)
        XCTAssertEqual(try f.store.subscribedChannels(space: f.space, gateway: .gcm, token: "new"), ["a", "b", "c"])
        XCTAssertEqual(try f.store.subscribedChannels(space: f.space, gateway: .gcm, token: "old"), [])
        var message = PushMessage()
        message.alert = "Hi"
        XCTAssertEqual(try f.store.queuePush(space: f.space, channel: "a", message: message, now: 2), 1)
        XCTAssertEqual(try f.store.queuePush(space: f.space, channel: "nobody", message: message, now: 2), 0)
        let rows = try f.store.pushOutbox(space: nil, channel: nil, onlyQueued: true, limit: 10)
        XCTAssertEqual(rows.map(\.tokens), [["new"]])
        XCTAssertEqual(rows.first?.payload, "{\"registration_ids\":[\"new\"],\"data\":{},\"collapse_key\":\"Hi\"}")
        try f.store.setPushState(id: rows.first?.id ?? 0, state: "logged")
        XCTAssertEqual(try f.store.pushOutbox(space: nil, channel: nil, onlyQueued: true, limit: 10).count, 0)
    }

    func testPushPayloads() {
        var message = PushMessage()
        message.alert = "Hi"
        message.badge = 3
        message.apnPayload = [("k", "v"), ("aps", "ignored")]
        message.gcmData = [("x", "y")]
        message.timeToLive = 60
        message.delayWhileIdle = true
        XCTAssertEqual(message.payload(for: .apn, tokens: ["t"]), "{\"aps\":{\"alert\":\"Hi\",\"badge\":3},\"k\":\"v\"}")
        XCTAssertEqual(message.payload(for: .gcm, tokens: ["t"]),
                       "{\"registration_ids\":[\"t\"],\"data\":{\"x\":\"y\"},\"collapse_key\":\"Hi\",\"time_to_live\":60,\"delay_while_idle\":true}")
    }

    func testTokenChangeHeaders() {
        XCTAssertEqual(TokenChangeHeaders(current: "gcm=new", old: "[\"a\",\"b\"]")?.old, ["a", "b"])
        XCTAssertNil(TokenChangeHeaders(current: "gcm=new", old: "[oops"))
        XCTAssertNil(TokenChangeHeaders(current: "apn=new", old: "[\"a\"]"))
        XCTAssertNil(TokenChangeHeaders(current: "gcm=", old: "[\"a\"]"))
        XCTAssertNil(TokenChangeHeaders(current: "gcm=new", old: "[1]"))
        XCTAssertNil(TokenChangeHeaders(current: "gcm=new", old: "[" + Array(repeating: "\"a\"", count: 101).joined(separator: ",") + "]"))
    }

    /// The example of RFC 5849 §3.4.1 / Twitter's "Creating a signature" guide, reduced to a GET without a
    /// body: the signature is recomputed independently from the base string.
    func testOAuth1Signature() throws {
        let header = OAuth1.authorization(method: "GET", url: "https://api.twitter.com/1.1/account/verify_credentials.json?a=b%20c",
                                          consumerKey: "ck", consumerSecret: "cs", token: "tk", tokenSecret: "ts",
                                          nonce: "n1", timestamp: 1_318_622_958)
        let base = "GET&https%3A%2F%2Fapi.twitter.com%2F1.1%2Faccount%2Fverify_credentials.json&"
            + "a%3Db%2520c%26oauth_consumer_key%3Dck%26oauth_nonce%3Dn1%26oauth_signature_method%3DHMAC-SHA1"
            + "%26oauth_timestamp%3D1318622958%26oauth_token%3Dtk%26oauth_version%3D1.0"
        let expected = Base64.encode(Crypto.hmacSHA1(key: Array("cs&ts".utf8), data: Array(base.utf8)))
        XCTAssertTrue(header.hasPrefix("OAuth oauth_consumer_key=\"ck\", oauth_nonce=\"n1\""), header)
        XCTAssertTrue(header.hasSuffix("oauth_signature=\"\(OAuth1.encode(expected))\""), header)
        XCTAssertEqual(OAuth1.encode("a b&c/é~"), "a%20b%26c%2F%C3%A9~")
    }

    func testProviderReplies() {
        let gh = ProviderReplies.identity(.github, body: Array("{\"id\":42,\"login\":\"ana\",\"name\":null}".utf8))
        XCTAssertEqual(gh?.id, "42")
        XCTAssertEqual(gh?.loginData.map(\.key), ["id", "login"])
        let tw = ProviderReplies.identity(.twitter, body: Array("{\"id\":1,\"id_str\":\"123\",\"screen_name\":\"a\"}".utf8))
        XCTAssertEqual(tw?.id, "123")
        let gp = ProviderReplies.identity(.googleplus, body: Array("{\"id\":\"g\",\"displayName\":\"A\",\"image\":{\"url\":\"u\"}}".utf8))
        XCTAssertEqual(gp?.loginData.map(\.value), ["g", "A", "u"])
        let ln = ProviderReplies.identity(.linkedin, body: Array("<person><id>L1</id><first-name>A &amp; B</first-name></person>".utf8))
        XCTAssertEqual(ln?.loginData.map(\.value), ["L1", "A & B"])
        XCTAssertNil(ProviderReplies.identity(.facebook, body: Array("{\"name\":\"no id\"}".utf8)))
        XCTAssertNil(ProviderReplies.identity(.facebook, body: Array("not json".utf8)))
    }

    func testOutboundResponseParsing() throws {
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".utf8)
        XCTAssertEqual(try OutboundHTTP.parseResponse(chunked).body, Array("abcde".utf8))
        XCTAssertThrowsError(try OutboundHTTP.parseResponse(Array("garbage".utf8)))
        XCTAssertThrowsError(try OutboundHTTP.request("GET", "ftp://x/"))
        XCTAssertThrowsError(try OutboundHTTP.request("GET", "http://user@host/"))
    }

    func testMailRetryAndSMTPSettings() throws {
        let retry = MailRetry(baseSeconds: 30)
        XCTAssertEqual((1...5).map { retry.delaySeconds(afterFailedAttempts: $0) }, [30, 60, 120, 240, nil])
        let parsed = try BackbeamConfig(JSONObject([("smtp", .object(JSONObject([("host", .string("mail.example.com")),
                                                                                  ("from", .string("noreply@example.com"))])))]))
        XCTAssertEqual(parsed.smtp?.port, 587)
        XCTAssertEqual(parsed.smtp?.security, .starttls)
        XCTAssertNil(try BackbeamConfig(JSONObject()).smtp)
        for bad: JSONObject in [["host": "h"], ["host": "h", "from": "a b@x"], ["host": "h", "from": "a@x", "security": "ssl"],
                                ["host": "h", "from": "a@x", "user": "u"], ["host": "h", "from": "a@x", "pass": "p"]] {
            XCTAssertThrowsError(try BackbeamConfig(JSONObject([("smtp", .object(bad))])), "\(bad)")
        }
        let mail = MailMessage(recipient: "ana@example.com", kind: "lostpassword", subject: "Café", body: "line 1\n.line 2")
        let text = SMTPMailer.message(mail, from: "noreply@example.com")
        XCTAssertTrue(text.contains("Subject: =?UTF-8?B?Q2Fmw6k=?=\r\n"), text)
        let body = text.components(separatedBy: "\r\n\r\n")[1].replacingOccurrences(of: "\r\n", with: "")
        XCTAssertEqual(Base64.decode(body).map { String(decoding: $0, as: UTF8.self) }, "line 1\r\n.line 2")
        XCTAssertFalse(SMTPMailer.isAddress("a@x>\r\nRCPT TO:<b@y"))
    }
}
