import Foundation
import Core

/// The name and password of an HTTP Basic `Authorization` header (RFC 7617).
///
/// One decoder for every API: the server admin (admin API, Datastore admin routes, Couch) and Parse,
/// which reads `Basic base64(appId:masterKey)` (spec §3.1).
public struct BasicCredentials: Sendable, Equatable {
    /// The part before the first `:` (user name, or Parse's application id).
    public let name: String
    /// Everything after the first `:`, which may itself contain colons.
    public let password: String

    /// Creates credentials.
    public init(name: String, password: String) {
        self.name = name
        self.password = password
    }

    /// Decodes `Basic base64(name:password)`: the scheme in any case followed by one space, then Base64
    /// (surrounding spaces and tabs ignored) of UTF-8 text holding a colon. Nil for any other header.
    ///
    /// Works on the header's bytes: every authenticated Couch and admin request passes through here, and the
    /// Foundation string functions this once used (`lowercased`, `trimmingCharacters`, `String(bytes:encoding:)`)
    /// cost about 25,000 instructions per request.
    public init?(authorization header: String) {
        let utf8 = header.utf8
        // `| 0x20` folds the ASCII letters of the scheme to lowercase; exactly one space must follow it.
        guard utf8.count > 6, zip(utf8.prefix(5), "basic".utf8).allSatisfy({ $0 | 0x20 == $1 }),
              utf8.dropFirst(5).first == 0x20 else { return nil }
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let encoded = utf8.dropFirst(6).drop(while: isBlank)
        let trimmed = encoded.prefix(encoded.count - encoded.reversed().prefix(while: isBlank).count)
        guard let bytes = Base64.decode(String(Substring(trimmed))),
              let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              let name = String(validating: bytes[..<colon], as: UTF8.self),
              let password = String(validating: bytes[(colon + 1)...], as: UTF8.self) else { return nil }
        self.name = name
        self.password = password
    }
}
