import Logging

/// One line per request: method, target, status, body bytes, duration and request id.
enum AccessLog {
    static func write(_ logger: Logger, head: RequestHead, requestID: String, remoteAddress: String, status: Int,
                      bytes: Int, seconds: Double, aborted: Bool, logsQuery: Bool = true) {
        let millis = (seconds * 10_000).rounded() / 10
        let target = logsQuery ? redacted(head.target) : withoutQuery(head.target)
        logger.info("\(head.method.rawValue) \(target) \(status) \(bytes)B \(millis)ms\(aborted ? " aborted" : "")",
                    metadata: ["request-id": .string(requestID), "remote": .string(remoteAddress)])
    }

    /// Query parameter names whose values are credentials somewhere in the four APIs (Datastore's
    /// `access_token` / `oauth_token` / `oauth_signature`, Backbeam's `signature`, Parse's `sessionToken`,
    /// keys and passwords). Matched case-insensitively as substrings of the name.
    static let secretNameParts = ["token", "signature", "password", "secret", "key"]

    /// The target without its query string (`/data/place/x?...` -> `/data/place/x`).
    static func withoutQuery(_ target: String) -> String {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<q])
    }

    /// The target with the value of every credential-looking query parameter replaced by `***`, so the
    /// access log never holds a usable secret.
    static func redacted(_ target: String) -> String {
        guard let q = target.firstIndex(of: "?") else { return target }
        let path = target[..<q]
        // Parse's `GET /login` and `GET /verifyPassword` carry username and password in the query: the whole
        // query string is withheld there.
        if path.hasSuffix("/login") || path.hasSuffix("/verifyPassword") { return path + "?***" }
        let query = target[target.index(after: q)...]
        var changed = false
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> Substring in
            guard let eq = pair.firstIndex(of: "=") else { return pair }
            let name = pair[..<eq].lowercased()
            guard secretNameParts.contains(where: { name.contains($0) }) else { return pair }
            changed = true
            return pair[...eq] + "***"
        }
        return changed ? path + "?" + parts.joined(separator: "&") : target
    }
}
