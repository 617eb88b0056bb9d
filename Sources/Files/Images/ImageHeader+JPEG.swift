extension ImageHeader {
    /// The most JPEG segments walked. Real files have a dozen or two before the first scan; a file of
    /// empty segments cannot make the walk long.
    static let maxJPEGSegments = 1024

    /// A JPEG's first frame header (SOF0...SOF15 other than DHT, JPG and DAC) gives the size; the last
    /// EXIF APP1 segment before the first scan gives the orientation (libjpeg keeps the markers up to the
    /// first scan, and libvips takes the last EXIF among them). A frame header is reported even when
    /// the segments after it are damaged or missing, so that its declared size can be refused.
    static func parseJPEG(_ reader: some ByteReader) -> ImageHeader? {
        var offset = 2
        var size: (width: Int, height: Int)?
        var orientation = 1
        func found() -> ImageHeader? {
            size.map { ImageHeader(format: .jpeg, storedWidth: $0.width, storedHeight: $0.height, orientation: orientation) }
        }
        for _ in 0..<maxJPEGSegments {
            // Markers are 0xFF then a code; any number of 0xFF fill bytes may come first.
            guard reader.byte(at: offset) == 0xFF else { return found() }
            var code: UInt8 = 0xFF
            while code == 0xFF {
                offset += 1
                guard let next = reader.byte(at: offset) else { return found() }
                code = next
            }
            offset += 1
            switch code {
            case 0x01, 0xD0...0xD7: continue            // standalone markers carry no length
            case 0xD8, 0xD9, 0xDA: return found()        // SOI again, EOI, or SOS: the header is over
            default: break
            }
            guard let length = reader.uint16BE(at: offset), length >= 2 else { return found() }
            let payload = offset + 2
            if isStartOfFrame(code), size == nil {
                // precision (1), height (2), width (2), components (1)
                guard let height = reader.uint16BE(at: payload + 1), let width = reader.uint16BE(at: payload + 3),
                      plausible(width, height) else { return nil }
                size = (width, height)
            } else if code == 0xE1, length >= 8, reader.bytes(at: payload, count: 6) == Array("Exif\0\0".utf8) {
                orientation = EXIFOrientation.read(tiff: reader.bytes(at: payload + 6, count: length - 8)) ?? 1
            }
            offset += length
        }
        return found()
    }

    /// SOF0...SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isStartOfFrame(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }
}
