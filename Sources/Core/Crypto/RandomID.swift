/// Random identifiers from the CSPRNG.
public enum RandomID {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// `length` characters from [A-Za-z0-9], each equally likely (a non-positive length gives "").
    ///
    /// A random byte is used only when it is below 248 (the largest multiple of 62 that fits in a byte),
    /// so `byte % 62` is uniform; the rest are rejected rather than folded in, which would favour the
    /// first eight characters.
    public static func alphanumeric(_ length: Int) -> String {
        guard length > 0 else { return "" }
        let limit = UInt8(alphabet.count * 4)   // 248
        var out = [UInt8]()
        out.reserveCapacity(length)
        var random = [UInt8]()
        random.reserveCapacity(length + length / 16 + 4)
        while out.count < length {
            // About 3% of bytes are rejected; ask for a little more than needed to usually finish in one go.
            let needed = length - out.count
            random.removeAll(keepingCapacity: true)
            RandomPool.shared.take(needed + needed / 16 + 2, into: &random)
            for byte in random where byte < limit {
                out.append(alphabet[Int(byte % UInt8(alphabet.count))])
                if out.count == length { break }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Lowercase hex of `bytes` random bytes (so `2 * bytes` characters).
    public static func hex(_ bytes: Int) -> String { Hex.encode(Crypto.randomBytes(bytes)) }
}
