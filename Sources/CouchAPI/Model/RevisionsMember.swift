import Core

extension RevPath {
    /// Parses a body's `_revisions` member (§4.6) with CouchDB's checks and texts, in its order
    /// (`couch_doc:transfer_fields/3`): not an object → "Bad special document member: _revisions";
    /// `start` not an integer literal → "_revisions.start isn't an integer."; `ids` not an array →
    /// "_revisions.ids isn't a array."; then each id: not a string → "RevId isn't a string", 32
    /// characters that are not hex → "RevId isn't a valid hexadecimal". All `doc_validation`.
    ///
    /// Beyond CouchDB (Decisions §4.4, §4.6): an id that is not 1–256 bytes of printable ASCII, or a
    /// `start` past 2^31 − 1, is 400 "Invalid rev format"; empty `ids`, or a `start` below their
    /// count, is `doc_validation`.
    public init(revisionsMember value: JSON) throws(CouchError) {
        guard case .object(let object) = value else { throw .badSpecialMember("_revisions") }
        // jiffy makes integers only from literals without fraction or exponent: `1.0` and `1e0` are
        // floats, and `is_integer` refuses them.
        guard case .number(let startNumber)? = object["start"], startNumber.isInteger else {
            throw .docValidation("_revisions.start isn't an integer.")
        }
        guard case .array(let ids)? = object["ids"] else { throw .docValidation("_revisions.ids isn't a array.") }
        var keys: [RevKey] = []
        keys.reserveCapacity(ids.count)
        for id in ids {
            guard case .string(let suffix) = id else { throw .docValidation("RevId isn't a string") }
            // Over the contiguous bytes: the parse generic over `String.UTF8View` cost about 1,500
            // instructions per id, three ids per replicated document.
            switch suffix.utf8.withContiguousStorageIfAvailable({ RevKey.parseSuffix($0) }) ?? RevKey.parseSuffix(suffix.utf8) {
            case .key(let key): keys.append(key)
            case .notHex: throw .docValidation("RevId isn't a valid hexadecimal")
            case .malformed: throw .invalidRevFormat
            }
        }
        // An integer literal too long for Int64 is far outside 1…2^31−1 either way; its sign says which side.
        let start = Int64(startNumber.text).flatMap { Int(exactly: $0) }
            ?? (startNumber.text.hasPrefix("-") ? Int.min : Int.max)
        try self.init(start: start, keys: keys)
    }
}
