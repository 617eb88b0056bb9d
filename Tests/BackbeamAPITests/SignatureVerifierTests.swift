import XCTest
@testable import BackbeamAPI

/// §3.4 steps 1-8 in order (BB-027 .. BB-033 at the unit level).
final class SignatureVerifierTests: XCTestCase {
    private let now: Int64 = 1_397_166_331_409
    private let nonce = "6303cd9bf27d27eb6343427ac42365b38b09f112"
    private let verifier = SignatureVerifier()
    private let secrets = ["foo": "bar", "dev_key": "dev_secret"]

    /// Parameters signed with `secret` for `method`/`signedPath`, with `overrides` applied after signing.
    private func signed(_ extra: [(String, String)] = [], time: Int64? = nil, nonce: String? = nil, key: String = "foo",
                        secret: String = "bar", method: String = "GET", signedPath: String = "/data/place") -> BackbeamParameters {
        var p = BackbeamParameters(scalars: [("key", key), ("nonce", nonce ?? self.nonce),
                                             ("time", String(time ?? now))] + extra)
        p.append("signature", CanonicalString.signature(secret: secret, parameters: p, method: method, path: signedPath))
        return p
    }

    private func verify(_ p: BackbeamParameters, method: String = "GET", path: String = "/data/place",
                        cache: NonceReplayCache = NonceReplayCache(), at time: Int64? = nil) -> Result<VerifiedSignature, SignatureError> {
        Result { () throws(SignatureError) in
            try verifier.verify(parameters: p, method: method, rawPath: path, now: time ?? now,
                                secretForKey: { secrets[$0] }, nonces: cache)
        }
    }

    private func error(_ result: Result<VerifiedSignature, SignatureError>) -> SignatureError? {
        if case .failure(let e) = result { return e }
        return nil
    }

    func testAcceptsAValidRequest() throws {
        let ok = try verify(signed([("auth", "abc|def")])).get()
        XCTAssertEqual(ok, VerifiedSignature(key: "foo", nonce: nonce, time: now, auth: "abc|def", pathForm: .raw))
        XCTAssertNil(try verify(signed()).get().auth)
    }

    func testVectorAPassesTheSignatureStage() throws {
        // BB-027: the published vector, replayed with the clock at its time.
        let p = BackbeamParameters(scalars: [("email", "user@example.com"), ("password", "foobarbaz"),
                                             ("key", "pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a"), ("nonce", nonce),
                                             ("time", "1397166331409"), ("signature", "ipzB9/s8GthdC4e6JVv5EwUOm6Y=")])
        let result = try verifier.verify(parameters: p, method: "POST", rawPath: "/user/email/login", now: now,
                                         secretForKey: { $0 == "pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a"
                                             ? "pro_d2483cadbe4018c2603d9ba8993663f42134ed455e5e7ffdb7c8573218d323b3cfe7d50d1c6a371f" : nil },
                                         nonces: NonceReplayCache())
        XCTAssertEqual(result.key, "pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a")
    }

    func testChecksRunInOrder() {
        // BB-028: each missing parameter, with all later ones missing too, names the earliest step.
        XCTAssertEqual(error(verify(BackbeamParameters())), .missingApiKey)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "")]))), .missingApiKey)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "nope")]))), .missingNonce)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "nope"), ("nonce", "short")]))), .invalidNonceLength)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "nope"), ("nonce", nonce)]))), .missingSignature)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "nope"), ("nonce", nonce), ("signature", "x")]))),
                       .missingTime)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "nope"), ("nonce", nonce), ("signature", "x"),
                                                               ("time", "1")]))), .expiredTime)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "nope"), ("nonce", nonce), ("signature", "x"),
                                                               ("time", String(now))]))), .invalidApiKey)
        XCTAssertEqual(error(verify(BackbeamParameters(scalars: [("key", "foo"), ("nonce", nonce), ("signature", "x"),
                                                               ("time", String(now))]))), .invalidSignature)
    }

    func testNonceLengths() {
        // BB-029: 30..42 characters; a UUID (36) and 40 hex pass.
        XCTAssertEqual(error(verify(signed(nonce: String(repeating: "a", count: 29)))), .invalidNonceLength)
        XCTAssertEqual(error(verify(signed(nonce: String(repeating: "a", count: 43)))), .invalidNonceLength)
        XCTAssertNil(error(verify(signed(nonce: String(repeating: "a", count: 30)))))
        XCTAssertNil(error(verify(signed(nonce: String(repeating: "b", count: 42)))))
        XCTAssertNil(error(verify(signed(nonce: "1b4e28ba-2fa1-11d2-883f-0016d3cca427"))))
        XCTAssertEqual(SignatureError.invalidNonceLength.status, .invalidNonce)
    }

    func testTimeFormat() {
        for bad in ["abc", "", "12a", "+1397166331409", "1.5", "12345678901234567"] {
            var p = BackbeamParameters(scalars: [("key", "foo"), ("nonce", nonce), ("signature", "x")])
            p.append("time", bad)
            XCTAssertEqual(error(verify(p)), .missingTime, bad)
        }
        XCTAssertEqual(verifier.parseTime("1234567890123456"), 1_234_567_890_123_456, "16 digits")
        XCTAssertEqual(verifier.parseTime("-5"), -5)
        XCTAssertEqual(verifier.parseTime("0001397166331409"), 1_397_166_331_409)
    }

    func testWindow() {
        // BB-030: ±299 s pass, ±301 s fail, exactly 300 s still passes.
        for offset: Int64 in [-299_000, 299_000, -300_000, 300_000] {
            XCTAssertNil(error(verify(signed(time: now + offset))), "\(offset)")
        }
        for offset: Int64 in [-301_000, 301_000, -300_001, 300_001] {
            XCTAssertEqual(error(verify(signed(time: now + offset))), .expiredTime, "\(offset)")
        }
        let narrow = SignatureVerifier(policy: SignaturePolicy(windowSeconds: 10))
        let p = signed(time: now - 11_000)
        XCTAssertThrowsError(try narrow.verify(parameters: p, method: "GET", rawPath: "/data/place", now: now,
                                               secretForKey: { _ in "bar" }, nonces: NonceReplayCache()))
        // Extreme clocks never overflow.
        XCTAssertEqual(error(verify(signed(time: -9_999_999_999_999_999 / 10), at: Int64.max)), .expiredTime)
        XCTAssertEqual(error(verify(signed(time: now), at: Int64.min)), .expiredTime)
    }

    func testUnknownKeyAndTampering() {
        // BB-031 / BB-003: an unknown key (e.g. a dev key on pro) and a tampered value.
        XCTAssertEqual(error(verify(signed(key: "pro_only", secret: "x"))), .invalidApiKey)
        var tampered = signed([("set-name", "a")], method: "POST")
        tampered.append("set-other", "b")
        XCTAssertEqual(error(verify(tampered, method: "POST")), .invalidSignature)
        XCTAssertEqual(error(verify(signed(secret: "wrong"))), .invalidSignature)
        XCTAssertEqual(error(verify(signed(method: "GET"), method: "DELETE")), .invalidSignature, "method is signed")
        let message = SignatureError.invalidSignature.backbeamError
        XCTAssertEqual(message.status, .invalidSignature)
        XCTAssertFalse(message.message.contains(CanonicalString.signature(secret: "bar", parameters: signed(), method: "GET",
                                                                          path: "/data/place")))
    }

    func testReplayAndNonceReuseAfterFailure() {
        // BB-032: the same accepted request twice → InvalidNonce; a nonce of a failed request stays usable.
        let cache = NonceReplayCache()
        XCTAssertEqual(error(verify(signed(secret: "wrong"), cache: cache)), .invalidSignature)
        XCTAssertNil(error(verify(signed(), cache: cache)))
        XCTAssertEqual(error(verify(signed(), cache: cache)), .replayedNonce)
        XCTAssertEqual(SignatureError.replayedNonce.backbeamError.status, .invalidNonce)
        // Once the first request's time has left the window, the nonce may be used again.
        XCTAssertNil(error(verify(signed(time: now + 300_001), cache: cache, at: now + 600_001)))
    }

    func testDecodedPathRetry() {
        // BB-033: the path as received first, then once percent-decoded.
        XCTAssertEqual(try verify(signed(), path: "/data/pl%61ce").get().pathForm, .decoded)
        XCTAssertEqual(try verify(signed(signedPath: "/data/pl%61ce"), path: "/data/pl%61ce").get().pathForm, .raw)
        XCTAssertEqual(error(verify(signed(), path: "/data/plac%65%")), .invalidSignature, "malformed escape: no retry")
        XCTAssertEqual(error(verify(signed(), path: "/data/place/")), .invalidSignature, "a trailing slash is signed")
        // BB-004: the prefix is not part of the signed path.
        XCTAssertEqual(error(verify(signed(signedPath: "/backbeam/demo/dev/data/place"))), .invalidSignature)
        XCTAssertEqual(SignatureVerifier.decodePath("/a%2Fb+c"), "/a/b+c", "'+' stays literal in paths")
        XCTAssertNil(SignatureVerifier.decodePath("/%FF"))
    }

    func testFullCacheRefusesInsteadOfForgetting() {
        let cache = NonceReplayCache(capacity: 1)
        XCTAssertNil(error(verify(signed(), cache: cache)))
        XCTAssertEqual(error(verify(signed(nonce: String(repeating: "c", count: 40)), cache: cache)), .replayCacheFull)
        XCTAssertEqual(SignatureError.replayCacheFull.backbeamError.httpStatus, 503)
    }

    func testMultipartAndUrlencodedBodiesVerifyAlike() throws {
        // BB-018 / BB-017: the Node SDK's multipart POST and Android's `+` body sign the same string.
        let secret = "bar"
        let base = BackbeamParameters(scalars: [("set-name", "Bar Pepe"), ("key", "foo"), ("nonce", nonce),
                                                ("time", String(now))])
        let sig = CanonicalString.signature(secret: secret, parameters: base, method: "POST", path: "/data/place")
        let fields = base.entries.map { MultipartField(name: $0.name, value: Array($0.values[0].utf8)) }
            + [MultipartField(name: "signature", value: Array(sig.utf8))]
        let escaped = sig.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "=", with: "%3D")
            .replacingOccurrences(of: "/", with: "%2F")
        let bodies: [ParameterBody] = [
            .multipart(fields),
            .urlencoded(Array("set-name=Bar+Pepe&key=foo&nonce=\(nonce)&time=\(now)&signature=\(escaped)".utf8)),
        ]
        for body in bodies {
            let decoded = try ParameterDecoder().decode(httpMethod: "POST", query: [], body: body)
            XCTAssertNil(error(verify(decoded.parameters, method: "POST")))
        }
    }
}
