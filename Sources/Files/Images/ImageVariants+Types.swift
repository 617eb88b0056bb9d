import Core
import Storage

/// Names the content a variant is made from: the API's file identity and its version (a new version
/// means new content, so its variants are new too). Any stable text works as `file`: a file id, or a
/// blob's hash (`init(blob:)`).
public struct VariantKey: Sendable, Hashable {
    /// The file's identity in its API.
    public let file: String
    /// The version of the file's content.
    public let version: Int

    public init(file: String, version: Int) {
        self.file = file
        self.version = version
    }

    /// The key of a blob: its content hash (content-addressed, so no version is needed).
    public init(blob: BlobReference) {
        self.init(file: blob.hash, version: 0)
    }

    /// The cache's name for this content resized by `request`: the first 128 bits of the SHA-256 of an
    /// unambiguous text of file, version and request, so that no client text reaches a path.
    func cacheName(for request: ResizeRequest) -> VariantName {
        let text = "\(file.utf8.count):\(file)\u{0}\(version)\u{0}\(request.token)"
        return VariantName(digest: Crypto.sha256(Array(text.utf8)))
    }
}

/// A variant's name in the cache: 128 bits, written as 32 lowercase hex digits in its file name. A
/// fixed-size value, so that the cache's dictionaries hash it cheaply.
struct VariantName: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    /// The first 16 bytes of a digest.
    init(digest: [UInt8]) {
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in digest.prefix(16).enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.high = high
        self.low = low
    }

    /// The name written as 32 lowercase hex digits; nil for any other text.
    init?(hex: some StringProtocol) {
        let bytes = Array(hex.utf8)
        guard bytes.count == 32 else { return nil }
        var values: [UInt64] = [0, 0]
        for (index, byte) in bytes.enumerated() {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            values[index / 16] = values[index / 16] << 4 | UInt64(digit)
        }
        high = values[0]
        low = values[1]
    }

    /// 32 lowercase hex digits.
    var hex: String {
        func padded(_ value: UInt64) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return padded(high) + padded(low)
    }
}

/// A content and a resize, as the cache's memory of names looks them up.
struct VariantIdentity: Hashable, Sendable {
    let key: VariantKey
    let mode: ResizeRequest.Mode
}

/// What to serve for a download with a resize request.
public enum VariantResult: Sendable, Equatable {
    /// The original bytes: nothing (valid) was asked, the content is not a JPEG, PNG or GIF, the
    /// answer would be the original's size or an upscale, or decoding failed.
    case original
    /// The variant in the file at `path` (`length` bytes, `mimeType` the source's). Serve it with
    /// `FileServing.respond(file:...)` right away: the file stays at least the cache's grace period.
    case variant(path: String, length: Int, mimeType: String)
}

/// A variant held in memory (`ImageVariants.cachedContents`).
public struct CachedVariant: Sendable, Equatable {
    /// The variant's bytes, as in its file.
    public let bytes: [UInt8]
    /// Its `Content-Type` (the source's).
    public let mimeType: String
}

/// Why no answer could be given. Each API maps these to its own errors (Backbeam: 400 `ImageTooLarge`,
/// 503 `ServiceUnavailable`).
public enum ImageVariantError: Error, Sendable, Equatable {
    /// The header declares `pixels` (or the variant would need that many), more than `limit`. Nothing
    /// was decoded.
    case imageTooLarge(pixels: Int, limit: Int)
    /// Every image worker stayed busy for the whole queue wait.
    case busy
}
