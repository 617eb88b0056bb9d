import Foundation
import XCTest
import Core

/// Signature and session: BB-026 … BB-035. BB-027 replays a published vector at its own `time`, which needs
/// the service's clock set: it is `BackbeamAPITests.UserServiceUnitTests.testPublishedVectorReachesTheLogin`.
final class BackbeamSignatureTests: BackbeamTestCase {
    private let vectorNonce = "6303cd9bf27d27eb6343427ac42365b38b09f112"

    /// The test client's signer reproduces §3.6, so every other test signs exactly as the SDKs do; the
    /// server's own builder is checked against the same vectors in BackbeamAPITests.CanonicalStringTests.
    func test_BB_026_testVectors() throws {
        let base: [(String, [String])] = [("key", ["foo"]), ("nonce", [vectorNonce]), ("time", ["1397166331409"])]
        let a: [(String, [String])] = [("email", ["user@example.com"]), ("password", ["foobarbaz"]),
                                       ("key", ["pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a"]), ("nonce", [vectorNonce]),
                                       ("time", ["1397166331409"])]
        let ca = BackbeamSigner.canonical(a, method: "POST", path: "/user/email/login")
        XCTAssertEqual(ca, "email=user@example.com&key=pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a&method=POST&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&password=foobarbaz&path=/user/email/login&time=1397166331409")
        XCTAssertEqual(BackbeamSigner.signature(secret: "pro_d2483cadbe4018c2603d9ba8993663f42134ed455e5e7ffdb7c8573218d323b3cfe7d50d1c6a371f",
                                                canonical: ca), "ipzB9/s8GthdC4e6JVv5EwUOm6Y=")
        let b = base + [("q", ["where weight>=? and weight<=? sort by weight"]), ("params", ["5", "3"]), ("limit", ["10"]), ("offset", ["0"])]
        XCTAssertEqual(BackbeamSigner.signature(secret: "bar", canonical: BackbeamSigner.canonical(b, method: "GET", path: "/data/item")),
                       "a8nfze1Ujrh5eHB6ZuvMp4M8wrY=")
        let c = base + [("set-name", ["Other name"]), ("incr-units", ["1"]), ("add-tags", ["b2", "a1"]), ("auth", ["abc|def"])]
        XCTAssertEqual(BackbeamSigner.signature(secret: "bar", canonical: BackbeamSigner.canonical(c, method: "PUT", path: "/data/item/uDiuuGIMMQ4O")),
                       "JR2hkkRZK2gSQpHsoPMSrUW0+FU=")
        let d = base + [("q", [""]), ("limit", ["10"]), ("offset", ["0"])]
        XCTAssertEqual(BackbeamSigner.signature(secret: "bar", canonical: BackbeamSigner.canonical(d, method: "GET", path: "/data/item")),
                       "Fu//PabG7VjsR7wTPUQq45WW8Ik=")
        let e = base + [("set-name", ["Zaragoza café"])]
        XCTAssertEqual(BackbeamSigner.signature(secret: "bar", canonical: BackbeamSigner.canonical(e, method: "POST", path: "/data/place")),
                       "D/RVf8Bs7UuAZ2gU2GowzXz3524=")
        // The same signing, live: a non-ASCII value and a list, accepted by the server.
        let r = try api.send("POST", "/data/place", [("set-name", ["Zaragoza café"]), ("add-tags", [])])
        XCTAssertEqual(r.status, 201, r.text)
    }

    private func without(_ name: String) -> (inout [(String, [String])]) -> Void {
        { params in params.removeAll { $0.0 == name } }
    }

    func test_BB_028_missingSignatureParameters() throws {
        assertError(try api.send("GET", "/data/place", mutate: without("key")), 400, "MissingApiKey")
        assertError(try api.send("GET", "/data/place", mutate: without("nonce")), 400, "MissingNonce")
        assertError(try api.send("GET", "/data/place", mutate: without("signature")), 400, "MissingSignature")
        assertError(try api.send("GET", "/data/place", mutate: without("time")), 400, "MissingTime")
        assertError(try api.send("GET", "/data/place", mutate: { params in
            if let i = params.firstIndex(where: { $0.0 == "time" }) { params[i].1 = ["abc"] }
        }), 400, "MissingTime")
    }

    func test_BB_029_nonceLength() throws {
        assertError(try api.send("GET", "/data/place", nonce: String(repeating: "a", count: 29)), 400, "InvalidNonce")
        assertError(try api.send("GET", "/data/place", nonce: String(repeating: "a", count: 43)), 400, "InvalidNonce")
        XCTAssertEqual(try api.send("GET", "/data/place", nonce: UUID().uuidString.lowercased()).status, 200)
        XCTAssertEqual(try api.send("GET", "/data/place", nonce: BackbeamSigner.nonce()).status, 200)
    }

    func test_BB_030_timeWindow() throws {
        let now = BackbeamSigner.now()
        assertError(try api.send("GET", "/data/place", time: now - 301_000), 400, "ExpiredTime")
        assertError(try api.send("GET", "/data/place", time: now + 301_000), 400, "ExpiredTime")
        XCTAssertEqual(try api.send("GET", "/data/place", time: now - 299_000).status, 200)
        XCTAssertEqual(try api.send("GET", "/data/place", time: now + 299_000).status, 200)
    }

    func test_BB_031_unknownKeyAndTamperedValue() throws {
        var c = api!
        c.keys.key = "dev_nosuchkey"
        assertError(try c.send("GET", "/data/place"), 400, "InvalidApiKey")
        var expected = ""
        let r = try api.send("POST", "/data/place", p(("set-name", "honest"))) { params in
            expected = params.first { $0.0 == "signature" }?.1.first ?? ""
            if let i = params.firstIndex(where: { $0.0 == "set-name" }) { params[i].1 = ["tampered"] }
        }
        assertError(r, 400, "InvalidSignature")
        XCTAssertFalse(r.text.contains(expected))
        XCTAssertEqual(try api.send("GET", "/data/place")["count"]?.int64Value, 0)
    }

    func test_BB_032_replayedNonce() throws {
        let nonce = BackbeamSigner.nonce()
        XCTAssertEqual(try api.send("GET", "/data/place", nonce: nonce).status, 200)
        assertError(try api.send("GET", "/data/place", nonce: nonce), 400, "InvalidNonce")
        // A nonce whose request failed the signature check was not consumed.
        let other = BackbeamSigner.nonce()
        let bad = try api.send("GET", "/data/place", nonce: other) { params in
            if let i = params.firstIndex(where: { $0.0 == "signature" }) { params[i].1 = ["AAAAAAAAAAAAAAAAAAAAAAAAAAA="] }
        }
        assertError(bad, 400, "InvalidSignature")
        XCTAssertEqual(try api.send("GET", "/data/place", nonce: other).status, 200)
    }

    /// The same rules for a read by id, which the server may answer without handing it to a worker.
    func test_BB_032_replayedNonceOnAReadById() throws {
        let id = try create("place", p(("set-name", "x")))
        let nonce = BackbeamSigner.nonce()
        let first = try api.send("GET", "/data/place/\(id)", nonce: nonce)
        XCTAssertEqual(first.status, 200)
        assertError(try api.send("GET", "/data/place/\(id)", nonce: nonce), 400, "InvalidNonce")
        let other = BackbeamSigner.nonce()
        let bad = try api.send("GET", "/data/place/\(id)", nonce: other) { params in
            if let i = params.firstIndex(where: { $0.0 == "signature" }) { params[i].1 = ["AAAAAAAAAAAAAAAAAAAAAAAAAAA="] }
        }
        assertError(bad, 400, "InvalidSignature")
        assertError(try api.send("GET", "/data/place/\(id)", time: BackbeamSigner.now() - 301_000), 400, "ExpiredTime")
        let again = try api.send("GET", "/data/place/\(id)", nonce: other)
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(again.text, first.text)
        // A form content type sends the read the general way: the same answer.
        let viaForm = try api.send("GET", "/data/place/\(id)",
                                   extraHeaders: [("Content-Type", "application/x-www-form-urlencoded")])
        XCTAssertEqual(viaForm.status, 200)
        XCTAssertEqual(viaForm.text, first.text)
        for name in ["Content-Type", "Cache-Control", "Access-Control-Allow-Origin"] {
            XCTAssertEqual(viaForm.header(name), first.header(name), name)
        }
    }

    func test_BB_033_decodedPathRetry() throws {
        let r = try api.send("GET", "/data/place", rawPath: "/data/pl%61ce")
        XCTAssertEqual(r.status, 200, r.text)
    }

    func test_BB_034_invalidAuthCode() throws {
        var c = api!
        c.auth = "garbage"
        assertError(try c.send("GET", "/data/place"), 400, "InvalidAuthCode")
        // A session-establishing endpoint ignores it (the SDKs send the previous user's auth on signup).
        XCTAssertEqual(try c.send("POST", "/data/user", p(("set-name", "new"))).status, 201)
        // Logging in with good credentials answers 200 with a new session, whatever stale auth came along.
        let signup = try c.send("POST", "/data/user", p(("set-email", "ana@example.com"), ("set-password", "secret1")))
        XCTAssertEqual(signup.status, 201, signup.text)
        let login = try c.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "secret1")))
        XCTAssertEqual(login.status, 200, login.text)
        XCTAssertEqual(login.apiStatus, "Success")
        XCTAssertEqual(login.id, signup.id)
        let auth = try XCTUnwrap(login["auth"]?.stringValue, login.text)
        XCTAssertNotEqual(auth, "garbage")
        XCTAssertNotEqual(auth, signup["auth"]?.stringValue, "every login is a new session")
        c.auth = auth
        XCTAssertEqual(try c.send("GET", "/data/place").status, 200, "the new session is accepted")
    }

    func test_BB_035_sessionStoredAsSHA256() throws {
        let user = try create("user", p(("set-name", "Ana")))
        let code = Hex.encode(Crypto.randomBytes(32))
        XCTAssertNotNil(code.range(of: "^[0-9a-f]{64}$", options: .regularExpression))
        try BackbeamDatabase(bb.server).insertSession(hash: Hex.encode(Crypto.sha256(Array(code.utf8))), project: projectName,
                                                      userID: user)
        var c = api!
        c.auth = code
        XCTAssertEqual(try c.send("GET", "/data/place").status, 200, "the code is found by its SHA-256")
        c.auth = Hex.encode(Crypto.sha256(Array(code.utf8)))
        assertError(try c.send("GET", "/data/place"), 400, "InvalidAuthCode")

        // Codes issued by signup and login: 64 lowercase hex characters, and only their SHA-256 is stored.
        let signup = try api.send("POST", "/data/user", p(("set-email", "ana@example.com"), ("set-password", "secret1")))
        XCTAssertEqual(signup.status, 201, signup.text)
        let login = try api.send("POST", "/user/email/login", p(("email", "ana@example.com"), ("password", "secret1")))
        XCTAssertEqual(login.status, 200, login.text)
        let db = BackbeamDatabase(bb.server)
        for issued in [signup["auth"]?.stringValue, login["auth"]?.stringValue] {
            let issued = try XCTUnwrap(issued)
            XCTAssertNotNil(issued.range(of: "^[0-9a-f]{64}$", options: .regularExpression), issued)
            let hash = Hex.encode(Crypto.sha256(Array(issued.utf8)))
            XCTAssertEqual(try db.query("SELECT count(*) FROM bb_sessions WHERE token_hash = ?", [.text(hash)]).first?[0].int64, 1)
            XCTAssertEqual(try db.query("SELECT count(*) FROM bb_sessions WHERE token_hash = ?", [.text(issued)]).first?[0].int64, 0)
        }
        XCTAssertGreaterThanOrEqual(try db.query("SELECT count(*) FROM bb_sessions").first?[0].int64 ?? 0, 3)
        // No value of any column of any table holds an issued code, as text or as its bytes.
        let codes = [signup["auth"]?.stringValue, login["auth"]?.stringValue].compactMap { $0 }
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].string }
        XCTAssertTrue(tables.contains("bb_sessions"))
        for table in tables where !table.hasPrefix("sqlite_") {
            for row in try db.query("SELECT * FROM \"\(table)\"") {
                for value in row.values {
                    let text: String
                    switch value {
                    case .text(let t): text = t
                    case .blob(let b): text = String(decoding: b, as: UTF8.self)
                    default: continue
                    }
                    for code in codes { XCTAssertFalse(text.contains(code), "\(table) holds an issued code") }
                }
            }
        }
    }
}
