import Foundation
import Core

/// OAuth 1.0a request signing (RFC 5849, HMAC-SHA1) for Twitter's `verify_credentials` (§5.4.6).
enum OAuth1 {
    /// The `Authorization: OAuth ...` value of a request to `url` (its query parameters are signed too).
    static func authorization(method: String, url: String, consumerKey: String, consumerSecret: String, token: String,
                              tokenSecret: String, nonce: String = RandomID.hex(16),
                              timestamp: Int64 = BackbeamClock.now() / 1000) -> String {
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey), ("oauth_nonce", nonce), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)), ("oauth_token", token), ("oauth_version", "1.0"),
        ]
        let parts = url.split(separator: "?", maxSplits: 1)
        let base = parts.first.map(String.init) ?? url
        // Query pairs arrive percent-encoded; they are signed in their decoded-then-re-encoded form.
        var signed = oauth.map { (encode($0.0), encode($0.1)) }
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                let key = (kv.first.map(String.init) ?? "").removingPercentEncoding ?? ""
                let value = (kv.count == 2 ? String(kv[1]) : "").removingPercentEncoding ?? ""
                signed.append((encode(key), encode(value)))
            }
        }
        signed.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        let parameterString = signed.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let baseString = method.uppercased() + "&" + encode(base) + "&" + encode(parameterString)
        let key = encode(consumerSecret) + "&" + encode(tokenSecret)
        let signature = Base64.encode(Crypto.hmacSHA1(key: Array(key.utf8), data: Array(baseString.utf8)))
        oauth.append(("oauth_signature", signature))
        return "OAuth " + oauth.map { "\(encode($0.0))=\"\(encode($0.1))\"" }.joined(separator: ", ")
    }

    /// RFC 3986 percent-encoding: everything but `A-Z a-z 0-9 - . _ ~`.
    static func encode(_ text: String) -> String {
        PercentEncoding.unreserved(text)
    }
}
