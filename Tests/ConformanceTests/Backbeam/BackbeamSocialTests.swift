import Foundation
import XCTest
import Core

/// Social signup, login and linking through a fake provider on loopback (§5.4.6; BB-135 to BB-142). The
/// server's `backbeam.social` points every provider at the fake one; Twitter gets a consumer key and secret.
final class BackbeamSocialTests: BackbeamTestCase {
    nonisolated(unsafe) static var provider: FakeSocialProvider?
    static let paths: [String: String] = ["twitter": "/tw/verify", "facebook": "/fb/me", "googleplus": "/gp/me",
                                          "linkedin": "/ln/people", "github": "/gh/user"]
    var fake: FakeSocialProvider { Self.provider! }

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if Self.shared[key] == nil {
            let provider = try FakeSocialProvider()
            Self.provider = provider
            var social = JSONObject()
            for (name, path) in Self.paths {
                var settings = JSONObject([("url", .string(provider.url(path)))])
                if name == "twitter" {
                    settings["consumerKey"] = .string("ck")
                    settings["consumerSecret"] = .string("cs")
                }
                if name == "googleplus" {
                    settings["clientId"] = .string("our-client")
                    settings["tokenCheckUrl"] = .string(provider.url("/gp/tokeninfo"))
                }
                social[name] = .object(settings)
            }
            Self.shared[key] = try BackbeamServer(environment: ["QUARTET_BACKBEAM_SOCIAL": JSON.object(social).serialized()])
        }
        try super.setUpWithError()
    }

    override class func tearDown() {
        provider?.stop()
        provider = nil
        super.tearDown()
    }

    /// A new Facebook id per test (the fake provider is shared by the class).
    func facebookUser() -> String {
        let id = String(UInt32.random(in: 1...UInt32.max))
        fake.answer("/fb/me", body: "{\"id\":\"\(id)\",\"name\":\"Ana\",\"link\":\"x\"}")
        return id
    }

    func test_BB_135_facebookSignupCreatesAUser() throws {
        let fbID = facebookUser()
        let r = try api.send("POST", "/user/facebook/signup", p(("access_token", "t1")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.apiStatus, "Success")
        XCTAssertEqual(r["auth"]?.stringValue?.count, 64)
        XCTAssertEqual(r.main?["login_fb_id"]?.stringValue, fbID)
        XCTAssertEqual(r.main?["login_fb_name"]?.stringValue, "Ana")
        XCTAssertEqual(r.main?["login_fb_link"]?.stringValue, "x")
        XCTAssertTrue(fake.requests.contains { $0.target == "/fb/me?access_token=t1" }, "\(fake.requests.map(\.target))")
        // Reads carry the login data too.
        XCTAssertEqual(try api.send("GET", "/data/user/\(r.id)").main?["login_fb_id"]?.stringValue, fbID)
    }

    func test_BB_136_returningSocialUser() throws {
        _ = facebookUser()
        let first = try api.send("POST", "/user/facebook/signup", p(("access_token", "t1")))
        XCTAssertEqual(first.status, 201)
        let again = try api.send("POST", "/user/facebook/signup", p(("access_token", "t1"), ("params", "")))
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(again.apiStatus, "UserAlreadyExists")
        XCTAssertEqual(again.id, first.id)
        XCTAssertNotNil(again.main)
        XCTAssertEqual(again["auth"]?.stringValue?.count, 64)
        XCTAssertNotEqual(again["auth"]?.stringValue, first["auth"]?.stringValue)
    }

    func test_BB_137_linkingToTheAuthUser() throws {
        let ana = try signup("ana@example.com", "secret1")
        var asAna = api!
        asAna.auth = ana["auth"]?.stringValue
        let ghID = Int.random(in: 1...1_000_000_000)
        fake.answer("/gh/user", body: "{\"id\":\(ghID),\"login\":\"ana\",\"name\":\"Ana\"}")
        let r = try asAna.send("POST", "/user/github/signup", p(("access_token", "g1")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.apiStatus, "UserAlreadyExists")
        XCTAssertEqual(r.id, ana.id)
        XCTAssertEqual(r.main?["login_gh_id"], .string(String(ghID)))
        XCTAssertEqual(r.main?["login_gh_login"]?.stringValue, "ana")
        XCTAssertEqual(r.main?["email#t"]?.stringValue, "ana@example.com")
        XCTAssertTrue(fake.requests.contains { $0.headers["authorization"] == "token g1" })
    }

    func test_BB_138_identityOfAnotherUser() throws {
        let fbID = facebookUser()
        let a = try api.send("POST", "/user/facebook/signup", p(("access_token", "t1")))
        XCTAssertEqual(a.status, 201)
        let b = try signup("bob@example.com", "secret1")
        var asBob = api!
        asBob.auth = b["auth"]?.stringValue
        assertError(try asBob.send("POST", "/user/facebook/signup", p(("access_token", "t1"))), 400, "IdentityAlreadyLinked")
        XCTAssertNil(try api.send("GET", "/data/user/\(b.id)").main?["login_fb_id"])
        XCTAssertEqual(try api.send("GET", "/data/user/\(a.id)").main?["login_fb_id"]?.stringValue, fbID)
    }

    func test_BB_139_providerFailures() throws {
        let cases: [(String, String, String, [(String, [String])])] = [
            ("facebook", "/fb/me", "FacebookError", p(("access_token", "x"))),
            ("twitter", "/tw/verify", "TwitterError", p(("oauth_token", "x"), ("oauth_token_secret", "y"))),
            ("googleplus", "/gp/me", "GooglePlusError", p(("access_token", "x"))),
            ("linkedin", "/ln/people", "LinkedInError", p(("access_token", "x"))),
            ("github", "/gh/user", "GitHubError", p(("access_token", "x"))),
        ]
        for (provider, path, status, params) in cases {
            fake.answer(path, status: 401, body: "{\"error\":\"bad token\"}")
            assertError(try api.send("POST", "/user/\(provider)/signup", params), 400, status)
            fake.answer(path, body: "not json {")
            assertError(try api.send("POST", "/user/\(provider)/signup", params), 400, status)
        }
        XCTAssertEqual(try api.send("GET", "/data/user")["count"]?.int64Value, 0)
    }

    func test_BB_140_twitterRequestIsOAuth1Signed() throws {
        fake.answer("/tw/verify", body: "{\"id\":1,\"id_str\":\"123\",\"screen_name\":\"ana\",\"name\":\"Ana\",\"profile_image_url\":\"i\"}")
        let r = try api.send("POST", "/user/twitter/signup", p(("oauth_token", "tok"), ("oauth_token_secret", "sec")))
        XCTAssertTrue([200, 201].contains(r.status), r.text)
        XCTAssertEqual(r.main?["login_tw_id"]?.stringValue, "123")
        XCTAssertEqual(r.main?["login_tw_screen_name"]?.stringValue, "ana")
        XCTAssertEqual(r.main?["login_tw_image"]?.stringValue, "i")
        let request = try XCTUnwrap(fake.requests.last { $0.target.hasPrefix("/tw/verify") })
        let header = try XCTUnwrap(request.headers["authorization"])
        XCTAssertTrue(header.hasPrefix("OAuth "), header)
        var fields: [String: String] = [:]
        for part in header.dropFirst(6).components(separatedBy: ", ") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { continue }
            fields[String(kv[0])] = String(kv[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).removingPercentEncoding
        }
        XCTAssertEqual(fields["oauth_consumer_key"], "ck")
        XCTAssertEqual(fields["oauth_token"], "tok")
        XCTAssertEqual(fields["oauth_signature_method"], "HMAC-SHA1")
        // Recompute the signature independently (RFC 5849 §3.4).
        func enc(_ s: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
        }
        let params = fields.filter { $0.key != "oauth_signature" }.map { (enc($0.key), enc($0.value)) }.sorted { $0.0 < $1.0 }
        let base = "GET&" + enc(fake.url("/tw/verify")) + "&" + enc(params.map { "\($0.0)=\($0.1)" }.joined(separator: "&"))
        let expected = Base64.encode(Crypto.hmacSHA1(key: Array("cs&sec".utf8), data: Array(base.utf8)))
        XCTAssertEqual(fields["oauth_signature"], expected)
    }

    func test_BB_141_unknownProviderAndMissingToken() throws {
        assertError(try api.send("POST", "/user/myspace/signup", p(("access_token", "x"))), 404, "UnknownSocialSignupProvider")
        assertError(try api.send("POST", "/user/facebook/signup"), 400, "MissingParameters")
        assertError(try api.send("POST", "/user/twitter/signup", p(("oauth_token", "x"))), 400, "MissingParameters")
    }

    func test_BB_142_socialIdentityInCollectionConstraint() throws {
        let fbID = facebookUser()
        let created = try api.send("POST", "/user/facebook/signup", p(("access_token", "t1")))
        XCTAssertEqual(created.status, 201)
        try signup("other@example.com", "secret1")
        let r = try api.send("GET", "/data/user", p(("q", "where this in ?"), ("params", "fb:\(fbID)")))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.ids, [created.id])
    }

    /// With the app's client id configured, a Google token must have been issued to that app (§5.4.6).
    func testGoogleTokenMustBeIssuedToTheProjectsApp() throws {
        let gpID = "g\(UInt32.random(in: 1...UInt32.max))"
        fake.answer("/gp/me", body: "{\"id\":\"\(gpID)\",\"displayName\":\"Ana\",\"image\":{\"url\":\"u\"}}")
        fake.answer("/gp/tokeninfo", body: "{\"aud\":\"another-app\"}")
        assertError(try api.send("POST", "/user/googleplus/signup", p(("access_token", "gt"))), 400, "GooglePlusError")
        XCTAssertTrue(fake.requests.contains { $0.target == "/gp/tokeninfo?access_token=gt" })
        fake.answer("/gp/tokeninfo", body: "{\"aud\":\"our-client\"}")
        let r = try api.send("POST", "/user/googleplus/signup", p(("access_token", "gt")))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["login_gp_id"]?.stringValue, gpID)
        XCTAssertEqual(r.main?["login_gp_image"]?.stringValue, "u")
    }
}
