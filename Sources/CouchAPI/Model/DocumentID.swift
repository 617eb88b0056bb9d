import Core

/// Document id rules (spec §4.3, CouchDB's `couch_doc:validate_docid/1` plus the spec's Decisions).
public enum DocumentID {
    /// Default of `couch.maxDocIdLength`, in bytes (Decision §4.3; CouchDB has no default bound).
    public static let defaultMaxLength = 2048

    /// Prefix of design document ids.
    public static let designPrefix = "_design/"
    /// Prefix of local (never replicated) document ids.
    public static let localPrefix = "_local/"

    /// Validates the `_id` member of a body: not a string → "Document id must be a string"; then as
    /// `validate(_:maxLength:)`. Returns the id.
    public static func validate(json: JSON, maxLength: Int = defaultMaxLength) throws(CouchError) -> String {
        guard case .string(let id) = json else { throw .illegalDocID("Document id must be a string") }
        try validate(id, maxLength: maxLength)
        return id
    }

    /// Validates an id that arrived as bytes (a percent-decoded path segment, the only way invalid UTF-8
    /// can arrive) and returns it as a string.
    public static func validate(utf8 bytes: [UInt8], maxLength: Int = defaultMaxLength) throws(CouchError) -> String {
        let id = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces every ill-formed sequence with U+FFFD, which changes the bytes: a round trip
        // that gives back the same bytes proves they were valid UTF-8.
        let valid = id.utf8.elementsEqual(bytes)
        try check(bytes, validUTF8: valid, maxLength: maxLength)
        return id
    }

    /// Validates an id already known to be a string.
    public static func validate(_ id: String, maxLength: Int = defaultMaxLength) throws(CouchError) {
        // Over the contiguous bytes: the checks generic over `String.UTF8View` cost about 1,000 instructions.
        let result = id.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(CouchError) in try check(bytes, validUTF8: true, maxLength: maxLength) }
        }
        guard let result else { return try check(id.utf8, validUTF8: true, maxLength: maxLength) }
        try result.get()
    }

    /// The checks of §4.3, in its order (clients see the first failing one).
    private static func check(_ bytes: some Collection<UInt8>, validUTF8: Bool, maxLength: Int) throws(CouchError) {
        if bytes.isEmpty { throw .illegalDocID("Document id must not be empty") }
        if bytes.elementsEqual(designPrefix.utf8) { throw .illegalDocID("Illegal document id `_design/`") }
        if bytes.elementsEqual(localPrefix.utf8) { throw .illegalDocID("Illegal document id `_local/`") }
        if bytes.count > maxLength { throw .illegalDocID("Document id is too long") }
        if !validUTF8 { throw .illegalDocID("Document id must be valid UTF-8") }
        // Decision §4.3: NUL invites truncation bugs in logs, headers and C string APIs. (Wording ours.)
        if bytes.contains(0) { throw .illegalDocID("Document id must not contain NUL characters") }
        if bytes.first == UInt8(ascii: "_"), !hasPrefix(bytes, designPrefix), !hasPrefix(bytes, localPrefix) {
            throw .illegalDocID("Only reserved document ids may start with underscore.")
        }
    }

    /// True for `_design/…` ids.
    public static func isDesign(_ id: String) -> Bool { hasPrefix(id.utf8, designPrefix) }

    /// True for `_local/…` ids.
    public static func isLocal(_ id: String) -> Bool { hasPrefix(id.utf8, localPrefix) }

    /// Byte-wise prefix test (ids are compared byte for byte, never with Unicode equivalence).
    private static func hasPrefix(_ bytes: some Collection<UInt8>, _ prefix: String) -> Bool {
        bytes.starts(with: prefix.utf8)
    }
}
