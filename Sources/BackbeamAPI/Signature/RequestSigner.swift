import Core

/// Signs requests the way the SDKs do (§3.3), for the `quartet backbeam sign` command and tests.
public enum RequestSigner {
    /// `name=value&...` of `parameters` plus `key`, `nonce`, `time` and `signature`, every name and value
    /// percent-encoded (space as `%20`), in the order given. The signature covers the decoded values with the
    /// effective `method` and the `path` after any `/backbeam/<project>/<env>` prefix.
    public static func signedQuery(method: String, path: String, parameters: [(String, String)], key: String,
                                   secret: String, nonce: String, time: Int64) -> String {
        var all = parameters
        all.append(("key", key))
        all.append(("nonce", nonce))
        all.append(("time", String(time)))
        let signature = CanonicalString.signature(secret: secret, parameters: BackbeamParameters(scalars: all),
                                                  method: method.uppercased(), path: path)
        all.append(("signature", signature))
        return all.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986), so `+`, `&`, `=` and `/` in values
    /// survive any decoder.
    public static func encode(_ text: String) -> String {
        PercentEncoding.unreserved(text)
    }
}
