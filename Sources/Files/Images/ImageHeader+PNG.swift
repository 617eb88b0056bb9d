extension ImageHeader {
    /// The most chunks walked looking for eXIf before the first IDAT.
    static let maxPNGChunks = 1024

    /// A PNG's IHDR (the first chunk) gives the size; an eXIf chunk before the first IDAT gives the
    /// orientation (the PNG 1.5 extension decoders honour there).
    static func parsePNG(_ reader: some ByteReader) -> ImageHeader? {
        guard reader.uint32BE(at: 8) == 13, reader.bytes(at: 12, count: 4) == Array("IHDR".utf8),
              let width = reader.uint32BE(at: 16), let height = reader.uint32BE(at: 20),
              plausible(width, height) else { return nil }
        var orientation = 1
        var offset = 8 + 8 + 13 + 4
        for _ in 0..<maxPNGChunks {
            guard let length = reader.uint32BE(at: offset), length <= Int(Int32.max) else { break }
            let type = reader.bytes(at: offset + 4, count: 4)
            if type == Array("IDAT".utf8) || type == Array("IEND".utf8) { break }
            if type == Array("eXIf".utf8) {
                orientation = EXIFOrientation.read(tiff: reader.bytes(at: offset + 8, count: length)) ?? 1
                break
            }
            offset += 12 + length
        }
        return ImageHeader(format: .png, storedWidth: width, storedHeight: height, orientation: orientation)
    }
}
