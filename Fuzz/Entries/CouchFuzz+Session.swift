import Core
@testable import CouchAPI

extension CouchFuzz {
    /// The key the session harness signs its re-issued tokens with.
    private static let sessionKey = Array("fuzz-server-secret".utf8) + Array("fuzz-salt".utf8)

    /// The input as a `Cookie` header: the `AuthSession` value is picked out and split into user, issue time
    /// and MAC (before any check of the MAC, as every request with the cookie does). A token that splits must
    /// name a user without a colon and a non-negative time, and a token issued for that user and time must
    /// split back to them and carry a MAC that verifies.
    static func session(_ input: [UInt8]) -> FuzzOutcome {
        let header = String(decoding: input, as: UTF8.self)
        guard let value = SessionCookie.value(named: SessionCookie.name, in: header) else {
            return .refused("no AuthSession cookie")
        }
        guard let parsed = SessionCookie.parse(value) else { return .refused("not a session token") }
        guard !parsed.user.utf8.contains(UInt8(ascii: ":")), parsed.time >= 0 else {
            return .violated("a token split into user \(parsed.user) and time \(parsed.time)")
        }
        let expected = Array("\(parsed.user):".utf8)
        guard parsed.message.starts(with: expected) else { return .violated("the MAC's input does not start with the user") }
        let reissued = SessionCookie.token(user: parsed.user, time: parsed.time, key: sessionKey)
        guard let again = SessionCookie.parse(reissued) else { return .violated("a re-issued token does not split") }
        guard again.user == parsed.user, again.time == parsed.time else {
            return .violated("a re-issued token splits into other values")
        }
        guard SessionCookie.verify(again, key: sessionKey) else { return .violated("a re-issued token does not verify") }
        return .accepted
    }
}
