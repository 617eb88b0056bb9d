import Core

/// The string a Backbeam request signs, and its signature (§3.3, exactly as the three SDKs build it).
public enum CanonicalString {
    /// Names never signed: `signature` itself, the empty name, and the names the SDKs add outside the
    /// signature (`_` is jQuery's cache-buster, `callback` and `_method` are added for JSONP and method
    /// tunnelling after signing).
    public static let skippedNames: Set<String> = ["", "_", "callback", "_method", "signature"]

    /// The canonical string as UTF-8 bytes, the HMAC input.
    ///
    /// 1. All parameters as decoded values, lists as lists.
    /// 2. `method` and `path` are set to the effective method and the path (after any `/backbeam/<p>/<e>`
    ///    prefix, without the query string). They overwrite client-sent `method`/`path` parameters:
    ///    Android sends both as real parameters, and the server's values are the ones that count.
    /// 3. The skipped names are dropped.
    /// 4. Names sorted by UTF-16 code units; each emits `name=value`, a list one pair per element over a
    ///    sorted copy of its values (order matters to BQL, so the parameters themselves stay unsorted);
    ///    joined with `&`. No escaping at all, so `q=where a=? and b=?` signs its spaces and `=` as is. An
    ///    empty value is emitted (`q=`); an empty list emits nothing.
    public static func bytes(parameters: BackbeamParameters, method: String, path: String) -> [UInt8] {
        var tokens: [(name: String, values: [String])] = []
        tokens.reserveCapacity(parameters.count + 2)
        for entry in parameters.entries {
            let name = entry.name
            if isSkipped(name) { continue }
            let length = name.utf8.count
            if (length == 6 && name.utf8.elementsEqual("method".utf8)) || (length == 4 && name.utf8.elementsEqual("path".utf8)) {
                continue
            }
            tokens.append((name, entry.values))
        }
        tokens.append(("method", [method]))
        tokens.append(("path", [path]))
        tokens.sort { UTF16Order.precedes($0.name, $1.name) }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        var first = true
        for token in tokens {
            let values = token.values.count > 1 ? token.values.sorted(by: UTF16Order.precedes) : token.values
            for value in values {
                if !first { out.append(UInt8(ascii: "&")) }
                first = false
                out.append(contentsOf: token.name.utf8)
                out.append(UInt8(ascii: "="))
                out.append(contentsOf: value.utf8)
            }
        }
        return out
    }

    /// The canonical string as text (for tests and diagnostics; it holds the signed values, so it must
    /// never be logged).
    public static func string(parameters: BackbeamParameters, method: String, path: String) -> String {
        String(decoding: bytes(parameters: parameters, method: method, path: path), as: UTF8.self)
    }

    /// `Base64(HMAC-SHA1(key: UTF-8(secret), message: canonical))`: standard alphabet, padded, one line.
    public static func signature(secret: String, canonical: [UInt8]) -> String {
        Base64.encode(Crypto.hmacSHA1(key: Array(secret.utf8), data: canonical))
    }

    /// The signature a client with `secret` sends for these parameters, method and path.
    public static func signature(secret: String, parameters: BackbeamParameters, method: String, path: String) -> String {
        signature(secret: secret, canonical: bytes(parameters: parameters, method: method, path: path))
    }

    /// Byte-exact membership in `skippedNames` (the Set lookup alone would also match canonically
    /// equivalent spellings, which the clients treat as different names). Only names of a skipped name's
    /// length are compared: every parameter of every signed request passes here.
    private static func isSkipped(_ name: String) -> Bool {
        switch name.utf8.count {
        case 0: return true
        case 1, 7, 8, 9: return skippedNames.contains { $0.utf8.elementsEqual(name.utf8) }
        default: return false
        }
    }
}
