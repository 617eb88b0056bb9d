import Foundation
import HTTP
import Auth

/// Finds the caller's token (§4.1) and resolves it to a user. The `Authorization` header decides when
/// present; otherwise `access_token`, then `oauth_token`. The first credential found is the only one
/// looked at: an unknown one is a 401, never a fall-through to another.
struct Credentials: Sendable {
    let store: any DatastoreStore

    func authenticate(_ request: HTTPRequest, _ params: RequestParameters) throws -> DatastoreUser {
        let token = try Self.presentedToken(request, params)
        guard let user = try store.user(forTokenHash: TokenHasher.hash(token)) else { throw DatastoreAPIError.invalidToken }
        return user
    }

    /// The presented token text.
    static func presentedToken(_ request: HTTPRequest, _ params: RequestParameters) throws -> String {
        if let header = request.headers["Authorization"] {
            let trimmed = header.trimmingOWS()
            // Split on UTF-8 bytes (every request does this; Character-wise it showed in profiles).
            let bytes = trimmed.utf8
            let space = bytes.firstIndex(of: UInt8(ascii: " ")) ?? bytes.endIndex
            let scheme = Substring(bytes[..<space])
            let rest = Substring(bytes[space...]).trimmingOWS()
            switch scheme.lowercased() {
            case "bearer" where !rest.isEmpty && !rest.utf8.contains(UInt8(ascii: " ")):
                return rest
            case "oauth":
                guard let token = OAuthHeader.parameter("oauth_token", in: rest), !token.isEmpty else {
                    throw DatastoreAPIError.invalidToken
                }
                return token
            default:
                throw DatastoreAPIError.invalidToken
            }
        }
        if let token = params.value("access_token"), !token.isEmpty { return token }
        if let token = params.value("oauth_token"), !token.isEmpty { return token }
        throw DatastoreAPIError.missingToken
    }
}

/// RFC 5849 `Authorization: OAuth k="v", ...` parameters (quoted, percent-encoded values).
enum OAuthHeader {
    /// The decoded value of `name`, or nil when absent or malformed.
    static func parameter(_ name: String, in text: String) -> String? {
        for part in text.split(separator: ",") {
            let pair = part.trimmingOWS()
            guard let eq = pair.firstIndex(of: "=") else { continue }
            guard pair[..<eq].trimmingOWS() == name else { continue }
            var value = pair[pair.index(after: eq)...].trimmingOWS()
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return PercentDecoding.decodePath(Substring(value))
        }
        return nil
    }
}
