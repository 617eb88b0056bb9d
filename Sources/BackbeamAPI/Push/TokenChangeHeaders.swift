import Core
import HTTP

/// Android's token change headers (§5.5.6): `x-backbeam-old-tokens: ["<old>", ...]` and
/// `x-backbeam-current-token: gcm=<new>`, sent on any request after the GCM registration id changed.
struct TokenChangeHeaders: Equatable {
    /// Most old tokens taken from one request.
    static let maxTokens = 100

    var old: [String]
    var new: String

    /// The headers of `headers`, or nil when they are absent or unparsable (then they are ignored).
    init?(_ headers: HTTPHeaders) {
        guard let current = headers["x-backbeam-current-token"], let oldText = headers["x-backbeam-old-tokens"] else {
            return nil
        }
        self.init(current: current, old: oldText)
    }

    init?(current: String, old oldText: String) {
        let parts = current.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "gcm", !parts[1].isEmpty, parts[1].count <= PushRoutes.maxTokenLength else {
            return nil
        }
        guard let array = (try? JSONParser.parse(oldText))?.arrayValue, array.count <= Self.maxTokens else { return nil }
        var tokens: [String] = []
        for item in array {
            guard let token = item.stringValue, !token.isEmpty, token.count <= PushRoutes.maxTokenLength else { return nil }
            tokens.append(token)
        }
        guard !tokens.isEmpty else { return nil }
        self.old = tokens
        self.new = String(parts[1])
    }
}
