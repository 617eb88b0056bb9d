#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTP

extension MIMEType {
    /// How many leading bytes `sniff` looks at.
    public static let sniffLength = 16

    /// The type of content recognised by its leading bytes (file signatures), for when a name has no or
    /// an unknown extension: PNG, JPEG, GIF, WebP, BMP, ICO, TIFF, HEIC, AVIF, PDF, ZIP, gzip, MP3 (ID3),
    /// WAV, Ogg, MP4, QuickTime and WebM. Nil when none matches.
    ///
    /// Only binary formats are recognised: text that a browser would run (HTML, SVG, XML, JavaScript) is
    /// never sniffed into an active type, so sniffing cannot turn an upload into a script.
    public static func sniff(_ bytes: some Collection<UInt8>) -> String? {
        let b = Array(bytes.prefix(sniffLength))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + signature.count && b[offset..<(offset + signature.count)].elementsEqual(signature)
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return "image/gif" }
        if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { return "image/webp" }
        if starts(ascii("RIFF")) && starts(ascii("WAVE"), at: 8) { return "audio/wav" }
        if starts(ascii("%PDF-")) { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return "application/zip" }
        if starts([0x1F, 0x8B, 0x08]) { return "application/gzip" }
        if starts(ascii("II*\0")) || starts(ascii("MM\0*")) { return "image/tiff" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "image/x-icon" }
        if starts(ascii("ID3")) { return "audio/mpeg" }
        if starts(ascii("OggS\0")) { return "audio/ogg" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "video/webm" }
        if starts(ascii("ftyp"), at: 4) { return isoMediaType(brand: b.count >= 12 ? Array(b[8..<12]) : []) }
        // Two letters are a weak signature: a bitmap's four reserved header bytes (6-9) must be zero too,
        // which text never has.
        if starts(ascii("BM")) && starts([0, 0, 0, 0], at: 6) { return "image/bmp" }
        return nil
    }

    /// The type of an ISO base media file by its major brand (bytes 8-11).
    private static func isoMediaType(brand: [UInt8]) -> String {
        switch String(decoding: brand, as: UTF8.self) {
        case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1": return "image/heic"
        case "avif", "avis": return "image/avif"
        case "qt  ": return "video/quicktime"
        case "M4A ", "M4B ": return "audio/mp4"
        default: return "video/mp4"
        }
    }

    /// `sniff` applied to the first bytes of a request body, read from its temporary file when the server
    /// spooled it (without reading the rest). Nil when the body is empty or unreadable.
    public static func sniff(_ body: RequestBody) -> String? {
        switch body {
        case .empty: return nil
        case .bytes(let bytes): return sniff(bytes)
        case .file(let path, _):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: sniffLength)
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return pread(fd, base, raw.count, 0)
            }
            return got > 0 ? sniff(buffer.prefix(got)) : nil
        }
    }
}
