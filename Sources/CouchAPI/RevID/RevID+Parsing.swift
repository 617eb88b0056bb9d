import Core

extension RevID {
    /// Parses `{generation}-{suffix}` (§4.4, `couch_doc:parse_rev/1` plus the Decision's bounds):
    /// split at the first `-`; the generation is decimal digits only (no sign, leading zeros tolerated)
    /// below 2^31; a suffix of exactly 32 characters must be hex in either case and becomes a digest key
    /// (so it is normalised to lowercase); any other suffix must be 1–256 bytes of printable ASCII and is
    /// kept literally. Anything else is 400 `bad_request` "Invalid rev format".
    public init(parsing text: String) throws(CouchError) {
        // Over the contiguous bytes: the parse generic over `String.UTF8View` cost several times as much.
        guard let rev = text.utf8.withContiguousStorageIfAvailable({ Self.parse(utf8: $0) }) ?? Self.parse(utf8: text.utf8)
        else { throw .invalidRevFormat }
        self = rev
    }

    /// Parses revision id bytes (a percent-decoded query parameter, for instance); see `init(parsing:)`.
    public init(parsingUTF8 bytes: some Collection<UInt8>) throws(CouchError) {
        guard let rev = Self.parse(utf8: bytes) else { throw .invalidRevFormat }
        self = rev
    }

    /// Parses a JSON value that must be a revision string (`_rev`, elements of `open_revs`, …); any other
    /// kind of value is "Invalid rev format", as `parse_rev/1` answers for non-strings.
    public init(json: JSON) throws(CouchError) {
        guard case .string(let text) = json else { throw .invalidRevFormat }
        try self.init(parsing: text)
    }

    /// Parses a JSON array of revision strings (`open_revs`, `atts_since`, the values of `_revs_diff`):
    /// not an array → "Invalid list of revisions"; a malformed element → "Invalid rev format".
    public static func list(json: JSON) throws(CouchError) -> [RevID] {
        guard case .array(let elements) = json else { throw .invalidRevList }
        var revs: [RevID] = []
        revs.reserveCapacity(elements.count)
        for element in elements { revs.append(try RevID(json: element)) }
        return revs
    }

    /// The parse itself; nil for anything §4.4 refuses.
    static func parse(utf8 bytes: some Collection<UInt8>) -> RevID? {
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")), dash != bytes.startIndex else { return nil }
        var generation = 0
        for c in bytes[..<dash] {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            // Checked before it can grow: `generation` stays at most maxGeneration, so `* 10 + 9` fits.
            generation = generation * 10 + Int(c - UInt8(ascii: "0"))
            guard generation <= maxGeneration else { return nil }
        }
        guard case .key(let key) = RevKey.parseSuffix(bytes[bytes.index(after: dash)...]) else { return nil }
        return RevID(generation: generation, key: key)
    }
}

extension RevKey {
    /// Outcome of parsing a suffix alone; `_revisions.ids` reports the two failures differently (§4.6).
    enum SuffixParse {
        case key(RevKey)
        /// 32 characters that are not all hex digits ("RevId isn't a valid hexadecimal").
        case notHex
        /// Empty, longer than 256 bytes, or not printable ASCII ("Invalid rev format").
        case malformed
    }

    /// Parses a suffix (the part after the dash): 32 hex digits → digest, else printable ASCII text.
    static func parseSuffix(_ bytes: some Collection<UInt8>) -> SuffixParse {
        let count = bytes.count
        if count == 32 {
            // Exactly CouchDB's rule: the 32-character form is read as a 128-bit hex number whatever
            // else it might look like, so `1-ABCD…` and `1-abcd…` are the same revision.
            var high: UInt64 = 0
            var low: UInt64 = 0
            var i = 0
            for c in bytes {
                guard let nibble = Hex.value(c) else { return .notHex }
                if i < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
                i += 1
            }
            return .key(.digest(high, low))
        }
        guard count >= 1, count <= maxTextLength,
              bytes.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else { return .malformed }
        return .key(.text(Array(bytes)))
    }
}
