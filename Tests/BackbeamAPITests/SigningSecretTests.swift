import XCTest
import Core
@testable import BackbeamAPI

/// The prepared signing key (HMAC-SHA1 over states computed once per key) against the signature vectors
/// of §3.6, and the canonical string written into one buffer against a plain reference build of §3.3.
final class SigningSecretTests: XCTestCase {
    /// The vectors' canonical strings, secrets and signatures (§3.6 (a), (b), (c), (e)).
    static let vectors: [(secret: String, canonical: String, signature: String)] = [
        ("pro_d2483cadbe4018c2603d9ba8993663f42134ed455e5e7ffdb7c8573218d323b3cfe7d50d1c6a371f",
         "email=user@example.com&key=pro_3ae5e79bb30c58501b88d81e7bb23ae6440aef2a&method=POST&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&password=foobarbaz&path=/user/email/login&time=1397166331409",
         "ipzB9/s8GthdC4e6JVv5EwUOm6Y="),
        ("bar", CanonicalStringTests.canonicalB, CanonicalStringTests.signatureB),
        ("bar",
         "add-tags=a1&add-tags=b2&auth=abc|def&incr-units=1&key=foo&method=PUT&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&path=/data/item/uDiuuGIMMQ4O&set-name=Other name&time=1397166331409",
         "JR2hkkRZK2gSQpHsoPMSrUW0+FU="),
        ("bar",
         "key=foo&method=POST&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&path=/data/place&set-name=Zaragoza café&time=1397166331409",
         "D/RVf8Bs7UuAZ2gU2GowzXz3524="),
    ]

    private func matches(_ secret: SigningSecret, _ given: String, _ canonical: String) -> Bool {
        Array(given.utf8).withUnsafeBytes { g in Array(canonical.utf8).withUnsafeBytes { secret.matches(g, canonical: $0) } }
    }

    func testSpecVectors() {
        for vector in Self.vectors {
            let secret = SigningSecret(vector.secret)
            XCTAssertEqual(secret.signature(canonical: Array(vector.canonical.utf8)), vector.signature)
            XCTAssertTrue(matches(secret, vector.signature, vector.canonical))
            XCTAssertTrue(matches(secret, vector.signature, vector.canonical), "the prepared key is reusable")
        }
    }

    /// Any changed character of the signature, a truncated or extended one, another canonical string and
    /// another secret are all refused.
    func testRefusesEverythingElse() {
        let vector = Self.vectors[1]
        let secret = SigningSecret(vector.secret)
        let given = Array(vector.signature.utf8)
        for i in given.indices {
            var forged = given
            forged[i] = forged[i] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            XCTAssertFalse(matches(secret, String(decoding: forged, as: UTF8.self), vector.canonical), "position \(i)")
        }
        XCTAssertFalse(matches(secret, String(vector.signature.dropLast()), vector.canonical))
        XCTAssertFalse(matches(secret, vector.signature + "=", vector.canonical))
        XCTAssertFalse(matches(secret, "", vector.canonical))
        XCTAssertFalse(matches(secret, vector.signature, vector.canonical + "&"))
        XCTAssertFalse(matches(SigningSecret("baz"), vector.signature, vector.canonical))
    }

    /// An empty secret signs as the one-shot HMAC does with an empty key.
    func testEmptySecret() {
        let canonical = Array("method=GET&path=/".utf8)
        let expected = Base64.encode(Crypto.hmacSHA1(key: [], data: canonical))
        XCTAssertEqual(SigningSecret("").signature(canonical: canonical), expected)
        XCTAssertTrue(matches(SigningSecret(""), expected, "method=GET&path=/"))
    }

    /// §3.3 written the plain way: tokens, sorted by UTF-16 code units, lists over sorted copies.
    private func reference(_ parameters: BackbeamParameters, method: String, path: String) -> String {
        let skipped: Set<[UInt8]> = ["", "_", "callback", "_method", "signature", "method", "path"].map { Array($0.utf8) }.reduce(into: []) { $0.insert($1) }
        var tokens = parameters.entries.filter { !skipped.contains(Array($0.name.utf8)) }.map { ($0.name, $0.values) }
        tokens.append(("method", [method]))
        tokens.append(("path", [path]))
        tokens.sort { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) }
        return tokens.flatMap { token in
            token.1.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }.map { token.0 + "=" + $0 }
        }.joined(separator: "&")
    }

    /// Generated parameter sets (names that sort around `method` and `path`, skipped names, sent `method`
    /// and `path`, lists, empty values, characters of 1 to 4 UTF-8 bytes including both sides of the
    /// surrogate ordering quirk) give the reference's bytes.
    func testCanonicalStringAgreesWithThePlainConstruction() {
        let names = ["key", "nonce", "time", "signature", "q", "params", "method", "path", "_method", "callback", "_",
                     "", "a", "z", "mo", "pa", "set-\u{e9}", "set-e\u{301}", "\u{1F600}", "\u{FF5E}", "M", "add-x"]
        let values = ["", "1", "a b", "=&", "\u{e9}", "\u{1F600}x", "\u{FF5E}", "Z", "zz", "/data/x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var p = BackbeamParameters()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                p.append(names.randomElement(using: &generator) ?? "", values.randomElement(using: &generator) ?? "")
            }
            let method = ["GET", "PUT"].randomElement(using: &generator) ?? "GET"
            let path = ["/data/x", "/data/p%61", ""].randomElement(using: &generator) ?? ""
            XCTAssertEqual(CanonicalString.string(parameters: p, method: method, path: path),
                           reference(p, method: method, path: path))
        }
    }
}
