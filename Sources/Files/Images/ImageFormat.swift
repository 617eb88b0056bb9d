/// The image formats variants are made of: JPEG, PNG and GIF, recognised by their leading bytes (never by
/// a name or a stored content type). Everything else, including WebP and HEIC, is served as it is.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case gif

    /// The media type of content in this format, and of its variants.
    public var mimeType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .gif: return "image/gif"
        }
    }

    /// The file name extension variants in this format are stored with.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        }
    }

    /// The format whose signature `bytes` start with; nil for anything else.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let b = Array(bytes.prefix(8))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }
}
