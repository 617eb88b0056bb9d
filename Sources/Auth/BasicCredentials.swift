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
    /// (surrounding whitespace ignored) of UTF-8 text holding a colon. Nil for any other header.
    public init?(authorization header: String) {
        guard header.lowercased().hasPrefix("basic "),
              let bytes = Base64.decode(String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(bytes: bytes, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        self.name = String(text[..<colon])
        self.password = String(text[text.index(after: colon)...])
    }
}
