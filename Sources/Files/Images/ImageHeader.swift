#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an image file's header declares, read without decoding a pixel: the format (from the leading
/// bytes), the stored size and the EXIF orientation. Used to refuse decompression bombs before any
/// decoder runs, to plan variants, and for the width and height APIs report for uploads.
///
/// The readings follow what the decoders will see: a JPEG's first frame header (SOFn) and the EXIF
/// APP1 segment before its first scan; a PNG's IHDR and an eXIf chunk before IDAT; a GIF's canvas
/// (logical screen, with the common decoders' rule for implausible screens, grown by the first frame).
public struct ImageHeader: Sendable, Equatable {
    /// The format the content's signature names.
    public let format: ImageFormat
    /// Stored width in pixels, before orientation.
    public let storedWidth: Int
    /// Stored height in pixels, before orientation.
    public let storedHeight: Int
    /// EXIF orientation, 1...8 (1 when there is none). 5...8 turn the picture by a quarter.
    public let orientation: Int

    /// A header with these values; `orientation` outside 1...8 is clamped into it, as decoders do.
    public init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: Int = 1) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = min(max(orientation, 1), 8)
    }

    /// Width of the upright picture (after orientation).
    public var width: Int { orientation >= 5 ? storedHeight : storedWidth }
    /// Height of the upright picture (after orientation).
    public var height: Int { orientation >= 5 ? storedWidth : storedHeight }
    /// The number of pixels a decoder would allocate for the picture.
    public var pixelCount: Int { storedWidth * storedHeight }

    /// Reads the header of the file at `path`. Nil when the file cannot be read, is not JPEG, PNG or GIF,
    /// or its header is damaged; only the few bytes the header needs are read.
    public static func read(path: String) -> ImageHeader? {
        guard let reader = FileByteReader(path: path) else { return nil }
        defer { reader.close() }
        return parse(reader)
    }

    /// The header of an image held in memory; nil as for `read(path:)`.
    public static func parse(_ bytes: [UInt8]) -> ImageHeader? {
        parse(ArrayByteReader(bytes: bytes))
    }

    static func parse(_ reader: some ByteReader) -> ImageHeader? {
        guard let format = ImageFormat.detect(reader.bytes(at: 0, count: 8)) else { return nil }
        switch format {
        case .jpeg: return parseJPEG(reader)
        case .png: return parsePNG(reader)
        case .gif: return parseGIF(reader)
        }
    }

    /// Dimensions no decoder accepts are refused here too: zero, or beyond 2^31 - 1.
    static func plausible(_ width: Int, _ height: Int) -> Bool {
        width > 0 && height > 0 && width <= Int(Int32.max) && height <= Int(Int32.max)
    }
}

/// Random access to the bytes of a file or a buffer, for header parsing. Reads past the end return
/// fewer bytes (or none), never fail.
protocol ByteReader {
    /// Up to `count` bytes starting at `offset`.
    func bytes(at offset: Int, count: Int) -> [UInt8]
}

extension ByteReader {
    /// The byte at `offset`, nil past the end.
    func byte(at offset: Int) -> UInt8? { bytes(at: offset, count: 1).first }

    /// A big-endian 16-bit value at `offset`.
    func uint16BE(at offset: Int) -> Int? {
        let b = bytes(at: offset, count: 2)
        return b.count == 2 ? Int(b[0]) << 8 | Int(b[1]) : nil
    }

    /// A little-endian 16-bit value at `offset`.
    func uint16LE(at offset: Int) -> Int? {
        let b = bytes(at: offset, count: 2)
        return b.count == 2 ? Int(b[1]) << 8 | Int(b[0]) : nil
    }

    /// A big-endian 32-bit value at `offset`.
    func uint32BE(at offset: Int) -> Int? {
        let b = bytes(at: offset, count: 4)
        return b.count == 4 ? Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]) : nil
    }
}

/// Bytes held in memory.
struct ArrayByteReader: ByteReader {
    let bytes: [UInt8]

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0, offset < bytes.count else { return [] }
        return Array(bytes[offset..<(offset + min(count, bytes.count - offset))])
    }
}

/// A file read through a window of `windowSize` bytes, so that walking many small structures (JPEG
/// segments, GIF sub-blocks) costs few system calls. Confined to one thread.
final class FileByteReader: ByteReader {
    static let windowSize = 64 * 1024
    private var descriptor: Int32
    private var window: [UInt8] = []
    private var windowStart = 0

    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { return nil }
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0, descriptor >= 0 else { return [] }
        if offset < windowStart || offset + count > windowStart + window.count {
            load(from: offset, minimum: count)
        }
        let start = offset - windowStart
        guard start >= 0, start < window.count else { return [] }
        return Array(window[start..<min(window.count, start + count)])
    }

    /// Fills the window from `offset` with at least `minimum` bytes where the file has them.
    private func load(from offset: Int, minimum: Int) {
        var buffer = [UInt8](repeating: 0, count: max(Self.windowSize, minimum))
        var filled = 0
        while filled < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return pread(descriptor, base + filled, raw.count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            filled += got
        }
        buffer.removeSubrange(filled...)
        window = buffer
        windowStart = offset
    }
}
