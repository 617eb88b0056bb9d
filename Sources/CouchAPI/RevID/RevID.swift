import Core

/// A document revision id `{generation}-{suffix}` (spec §4.4).
///
/// Revisions are ordered by generation, then by rev key (`RevKey`); that order decides the winning
/// revision (§5.2) on every peer, so it must match CouchDB's exactly.
public struct RevID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The generation: 1 for a document's first revision, parent's + 1 for each edit.
    public let generation: Int
    /// The suffix in its compared and hashed form.
    public let key: RevKey

    /// Largest generation accepted (Decision §4.4: below 2^31). CouchDB has no bound; a bound keeps
    /// generation arithmetic trivially safe, and no real document gets near it.
    public static let maxGeneration = Int(Int32.max)

    /// A revision id from its parts; nil when `generation` is outside 0…`maxGeneration`. Generation 0
    /// is representable because the parser accepts it; revision trees refuse it (§4.4: documents start
    /// at 1, only `_local` documents use `0-N`, and those are not `RevID`s).
    public init?(generation: Int, key: RevKey) {
        guard generation >= 0, generation <= Self.maxGeneration else { return nil }
        self.generation = generation
        self.key = key
    }

    /// A revision id whose generation the caller has already bounded (tree nodes, path members).
    init(boundedGeneration generation: Int, key: RevKey) {
        self.generation = generation
        self.key = key
    }

    /// The text form: generation in decimal (no leading zeros), a dash, the suffix (§4.4).
    public var description: String {
        // One buffer for the common digest form: interpolation and the suffix's own string cost about
        // 1,000 instructions per id, and every stored revision is written as text.
        guard case .digest(let high, let low) = key, generation >= 0 else { return "\(generation)-\(key.suffix)" }
        var digits = 1
        var rest = generation / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return String(unsafeUninitializedCapacity: digits + 33) { buffer in
            var value = generation
            for position in stride(from: digits - 1, through: 0, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
            buffer[digits] = UInt8(ascii: "-")
            RevKey.writeHex(high, low, into: buffer, at: digits + 1)
            return digits + 33
        }
    }

    /// The suffix as written after the dash.
    public var suffix: String { key.suffix }

    /// The JSON string of the text form.
    public var json: JSON { .string(description) }

    /// By generation, then by rev key (§4.4).
    public static func < (a: RevID, b: RevID) -> Bool {
        a.generation != b.generation ? a.generation < b.generation : a.key < b.key
    }
}
