import Core

/// The part of a revision id after the dash, in the form revisions are compared and hashed by (spec §4.4,
/// the "rev key").
///
/// CouchDB stores a 32-hex-digit suffix as the 16 bytes it encodes (that is what `new_revid` produces and
/// what goes into the parent's place in the next revision's hash), and every other suffix as its ASCII
/// bytes. Keeping the two forms apart also decides how a key is written back: digests as 32 lowercase
/// hex digits, text exactly as received.
public enum RevKey: Sendable, Hashable {
    /// A 32-hex-digit suffix: its 16 bytes as two big-endian halves, so that comparing the halves as
    /// integers is comparing the bytes.
    case digest(UInt64, UInt64)
    /// Any other suffix: its bytes, 1–256 of printable ASCII (0x21–0x7E).
    case text([UInt8])

    /// Longest text suffix accepted (Decision §4.4: keeps revision ids safe in logs and headers).
    public static let maxTextLength = 256

    /// The key of a 16-byte MD5 digest; nil unless `bytes` has exactly 16 elements.
    public init?(digest bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(bytes[i]) }
        self = .digest(high, low)
    }

    /// The key bytes: 16 for a digest, the ASCII text otherwise. These are what the revision order
    /// compares and what the next revision's hash contains as `OldRev` (§4.5).
    public var bytes: [UInt8] {
        switch self {
        case .digest(let high, let low):
            var out = [UInt8]()
            out.reserveCapacity(16)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
            return out
        case .text(let text):
            return text
        }
    }

    /// Appends the key bytes (see `bytes`) without building an array for them first.
    func appendBytes(to out: inout [UInt8]) {
        switch self {
        case .digest(let high, let low):
            withUnsafeBytes(of: high.bigEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: low.bigEndian) { out.append(contentsOf: $0) }
        case .text(let text):
            out.append(contentsOf: text)
        }
    }

    /// The suffix as written in revision ids: 32 lowercase hex digits for a digest (so `1-ABC…` comes
    /// back as `1-abc…`, as on CouchDB), the text itself otherwise.
    public var suffix: String {
        switch self {
        case .digest(let high, let low):
            return String(unsafeUninitializedCapacity: 32) { buffer in
                Self.writeHex(high, low, into: buffer, at: 0)
                return 32
            }
        case .text(let text): return String(decoding: text, as: UTF8.self)
        }
    }

    /// Writes the 32 lowercase hex digits of a digest at `offset` (which leaves room for them). Revision
    /// ids are written for every stored and answered revision; going through `bytes` and `Hex.encode`
    /// allocated twice per id.
    static func writeHex(_ high: UInt64, _ low: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { table in
            for i in 0..<16 {
                let shift = UInt64(60 - 4 * i)
                buffer[offset + i] = table[Int(truncatingIfNeeded: (high >> shift) & 0xF)]
                buffer[offset + 16 + i] = table[Int(truncatingIfNeeded: (low >> shift) & 0xF)]
            }
        }
    }

    /// True for the 32-hex (MD5) form.
    public var isDigest: Bool {
        if case .digest = self { return true }
        return false
    }
}

extension RevKey: Comparable {
    /// Byte-wise order of the key bytes, a proper prefix first (§4.4); for all-MD5 data this is the order
    /// of the lowercase hex strings. Mixed forms compare by their bytes too, which is how CouchDB orders
    /// the Erlang binaries. Only a 16-character text suffix can have the same bytes as a digest; CouchDB
    /// would confuse the two, here the text form sorts first so that the order stays total and agrees
    /// with equality.
    public static func < (a: RevKey, b: RevKey) -> Bool {
        switch (a, b) {
        case (.digest(let ah, let al), .digest(let bh, let bl)):
            return ah != bh ? ah < bh : al < bl
        case (.text(let x), .text(let y)):
            return x.lexicographicallyPrecedes(y)
        case (.text(let x), .digest):
            let y = b.bytes
            return x == y || x.lexicographicallyPrecedes(y)
        case (.digest, .text(let y)):
            let x = a.bytes
            return x != y && x.lexicographicallyPrecedes(y)
        }
    }
}
