/// The container around DEFLATE data (RFC 1951): gzip (RFC 1952, `Content-Encoding: gzip`) or zlib
/// (RFC 1950, HTTP's `deflate`).
public enum CompressionFormat: Sendable, Equatable {
    /// A gzip member: header, DEFLATE data, CRC-32 and length trailer.
    case gzip
    /// A zlib stream: two-byte header, DEFLATE data, Adler-32 trailer.
    case zlib

    /// zlib's `windowBits`: the largest window (15), plus 16 to select the gzip wrapper.
    var windowBits: Int32 {
        switch self {
        case .gzip: return 15 + 16
        case .zlib: return 15
        }
    }
}

/// Why compressed data could not be decoded or encoded.
public enum CompressionError: Error, Sendable, Equatable {
    /// The input is not valid data in its format (bad header, invalid codes, checksum mismatch, a
    /// preset dictionary, or bytes after a zlib stream's end).
    case corrupt
    /// The input ended before the compressed stream did.
    case truncated
    /// Decoding would produce more than the bound it was given: a decompression bomb, or merely too
    /// large for the caller. Nothing past the bound was handed out.
    case outputTooLarge
    /// zlib could not allocate its state.
    case outOfMemory
}
