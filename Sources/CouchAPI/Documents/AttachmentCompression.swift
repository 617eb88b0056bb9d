import Core

/// Which attachments are stored gzip-encoded, as CouchDB does with its `[attachments] compressible_types` and
/// `compression_level` (`couch.attachmentCompressibleTypes`, `couch.attachmentCompressionLevel`).
///
/// CouchDB compresses attachments of these types on disk and takes the MD5 of the compressed bytes as their
/// `digest`, which also enters revision ids (§4.5). Compressing the same bytes the same way (gzip wrapper,
/// largest window, `memLevel` 8, default strategy, the configured level: what CouchDB's `couch_stream` asks
/// of zlib) gives the same compressed bytes, so the same digests and revision ids as CouchDB for documents
/// written here. Level 0 turns compression off: every attachment is stored as received.
struct AttachmentCompression: Sendable, Equatable {
    /// CouchDB 3.3's default `compressible_types`.
    static let couchDBTypes = ["text/*", "application/javascript", "application/json", "application/xml"]
    /// CouchDB's default `compression_level`.
    static let couchDBLevel = 8
    /// Never compresses.
    static let off = AttachmentCompression(types: [], level: 0)

    /// Media-type patterns, lowercased; `*` matches any run of characters.
    let types: [String]
    /// zlib level 1…9, or 0 for never.
    let level: Int

    init(types: [String] = couchDBTypes, level: Int = couchDBLevel) {
        self.types = types.map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
        self.level = level
    }

    /// Whether data of `contentType` is stored compressed. As CouchDB: the pattern must match the media type,
    /// case-insensitively; parameters after `;` do not matter.
    func compresses(_ contentType: String) -> Bool {
        guard level > 0 else { return false }
        let media = Array((contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingSpacesAndTabs().lowercased().utf8)
        return types.contains { Self.glob(Array($0.utf8)[...], media[...]) }
    }

    /// A new gzip encoder at the configured level.
    func deflater() throws -> Deflater {
        try Deflater(format: .gzip, level: level)
    }

    /// `*`-glob matching without backtracking blow-up: patterns are short and `*` is the only metacharacter.
    static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: Int?, mark = text.startIndex
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = p
                mark = t
                p += 1
            } else if p < pattern.endIndex, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let s = star {
                p = s + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}
