import Foundation
import Core

/// The signature of the Backbeam SDKs (spec §3.3), written here from the specification alone so that the
/// black-box tests check the server against an independent implementation.
enum BackbeamSigner {
    /// Names the SDKs never sign.
    static let skipped: Set<String> = ["", "_", "callback", "_method", "signature"]

    /// The canonical string: parameters (lists as lists) plus `method` and `path` (overwriting any sent
    /// ones), skipped names dropped, names and each list's values sorted by UTF-16 code units, `name=value`
    /// joined with `&`, no escaping.
    static func canonical(_ params: [(String, [String])], method: String, path: String) -> String {
        var merged: [(String, [String])] = []
        for (name, values) in params where !skipped.contains(name) && name != "method" && name != "path" {
            if let i = merged.firstIndex(where: { $0.0 == name }) {
                merged[i].1 += values
            } else {
                merged.append((name, values))
            }
        }
        merged.append(("method", [method]))
        merged.append(("path", [path]))
        merged.sort { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) }
        var tokens: [String] = []
        for (name, values) in merged {
            for value in values.sorted(by: { $0.utf16.lexicographicallyPrecedes($1.utf16) }) {
                tokens.append(name + "=" + value)
            }
        }
        return tokens.joined(separator: "&")
    }

    /// Base64(HMAC-SHA1(secret, canonical)).
    static func signature(secret: String, canonical: String) -> String {
        Base64.encode(Crypto.hmacSHA1(key: Array(secret.utf8), data: Array(canonical.utf8)))
    }

    /// A 40-hex nonce like iOS and JS (SHA-1 of time and a random number).
    static func nonce() -> String {
        Hex.encode(Crypto.sha1(Array("\(Date().timeIntervalSince1970)-\(UUID().uuidString)".utf8)))
    }

    /// Milliseconds since the epoch.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
