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
        withBytes(parameters: parameters, method: method, path: path) { Array($0) }
    }

    /// Calls `body` with the canonical string's bytes (see `bytes`), written once into temporary memory
    /// that is valid only during the call: the signed names are put in order by their positions, the exact
    /// length is summed, and every pair is copied from its name's and value's UTF-8 storage; no tokens or
    /// strings are made (a list of two or more values sorts a copy of its values, as before).
    public static func withBytes<R>(parameters: BackbeamParameters, method: String, path: String,
                                    _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let entries = parameters.entries
        // Positions of the signed entries; `methodToken` and `pathToken` stand for the server's values.
        return try withUnsafeTemporaryAllocation(of: Int.self, capacity: entries.count + 2) { order in
            var count = 0
            for (i, entry) in entries.enumerated() where !isSkipped(entry.name) && !isMethodOrPath(entry.name) {
                order[count] = i
                count += 1
            }
            order[count] = methodToken
            order[count + 1] = pathToken
            count += 2
            func name(_ token: Int) -> String {
                token == methodToken ? "method" : token == pathToken ? "path" : entries[token].name
            }
            // Insertion sort: a request signs a handful of names, all distinct (the parameters hold each
            // name once, and the server's `method` and `path` replace any sent ones).
            for i in 1..<count {
                let token = order[i]
                let tokenName = name(token)
                var j = i
                while j > 0, UTF16Order.precedes(tokenName, name(order[j - 1])) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = token
            }
            // Exact length first (String's UTF-8 counts are stored, not counted).
            var length = 0
            var pairs = 0
            for k in 0..<count {
                let token = order[k]
                let nameLength = name(token).utf8.count
                if token == methodToken {
                    length += nameLength + 1 + method.utf8.count
                    pairs += 1
                } else if token == pathToken {
                    length += nameLength + 1 + path.utf8.count
                    pairs += 1
                } else {
                    for value in entries[token].values { length += nameLength + 1 + value.utf8.count }
                    pairs += entries[token].values.count
                }
            }
            length += max(0, pairs - 1)
            return try withUnsafeTemporaryAllocation(byteCount: max(1, length), alignment: 1) { buffer in
                var writer = BufferWriter(buffer: buffer)
                for k in 0..<count {
                    let token = order[k]
                    let tokenName = name(token)
                    if token == methodToken {
                        writer.pair(tokenName, method)
                    } else if token == pathToken {
                        writer.pair(tokenName, path)
                    } else {
                        let values = entries[token].values
                        if values.count > 1 {
                            for value in values.sorted(by: UTF16Order.precedes) { writer.pair(tokenName, value) }
                        } else {
                            for value in values { writer.pair(tokenName, value) }
                        }
                    }
                }
                return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<writer.offset]))
            }
        }
    }

    /// The stand-ins of the server's own `method` and `path` among the entry positions.
    private static let methodToken = -1
    private static let pathToken = -2

    /// Writes `name=value` pairs joined by `&` into memory sized for them (every write is bounds-checked
    /// all the same: a miscount stops writing, and the result would fail the comparison, not overrun).
    private struct BufferWriter {
        let buffer: UnsafeMutableRawBufferPointer
        var offset = 0

        mutating func pair(_ name: String, _ value: String) {
            if offset > 0 { byte(UInt8(ascii: "&")) }
            text(name)
            byte(UInt8(ascii: "="))
            text(value)
        }

        private mutating func byte(_ b: UInt8) {
            guard offset < buffer.count else { return }
            buffer[offset] = b
            offset += 1
        }

        private mutating func text(_ s: String) {
            let copied: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
                let n = min(bytes.count, buffer.count - offset)
                guard n > 0, let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                (target + offset).copyMemory(from: source, byteCount: n)
                offset += n
            }
            if copied == nil { for b in s.utf8 { byte(b) } }
        }
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
    /// equivalent spellings, which the clients treat as different names): the length picks the one
    /// candidate, compared with `memcmp`. Every parameter of every signed request passes here.
    static func isSkipped(_ name: String) -> Bool {
        switch name.utf8.count {
        case 0: return true
        case 1: return name.utf8.first == UInt8(ascii: "_")
        case 7: return ASCIILiteral.equals(name, "_method")
        case 8: return ASCIILiteral.equals(name, "callback")
        case 9: return ASCIILiteral.equals(name, "signature")
        default: return false
        }
    }

    /// True for `method` and `path`, which the server's values replace.
    static func isMethodOrPath(_ name: String) -> Bool {
        switch name.utf8.count {
        case 6: return ASCIILiteral.equals(name, "method")
        case 4: return ASCIILiteral.equals(name, "path")
        default: return false
        }
    }
}
