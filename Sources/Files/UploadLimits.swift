/// The bounds an upload must stay within. The server enforces `maxBytes` while the body arrives when a
/// route registers it as its body limit (`RouteGroup.on(..., maxBodyBytes: limits.maxBytes)`), so an
/// oversized upload is refused with 413 before it is stored; `check` holds the same line for content that
/// reaches the store another way (decoded from Base64, taken from a multipart part).
public struct UploadLimits: Sendable, Equatable {
    /// The largest upload in bytes.
    public var maxBytes: Int
    /// The longest file name in UTF-8 bytes (see `SafeFileName`).
    public var maxNameBytes: Int
    /// Whether an empty upload is refused.
    public var refusesEmpty: Bool

    /// Limits with the given bounds; by default 20 MiB (Parse Server's default `maxUploadSize`), names up
    /// to 255 bytes, and no empty uploads.
    public init(maxBytes: Int = 20 << 20, maxNameBytes: Int = SafeFileName.defaultMaxBytes, refusesEmpty: Bool = true) {
        self.maxBytes = maxBytes
        self.maxNameBytes = maxNameBytes
        self.refusesEmpty = refusesEmpty
    }

    /// Throws when `size` bytes are not an acceptable upload.
    public func check(size: Int) throws(UploadError) {
        if size == 0 && refusesEmpty { throw .empty }
        if size > maxBytes { throw .tooLarge(limit: maxBytes) }
    }
}

/// Why an upload was not stored.
public enum UploadError: Error, Sendable, Equatable {
    /// The upload has no content.
    case empty
    /// The upload is larger than `limit` bytes.
    case tooLarge(limit: Int)
}
