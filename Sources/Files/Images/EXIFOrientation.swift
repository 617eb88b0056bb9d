/// The Orientation tag (0x0112) of an EXIF block: a TIFF structure ("II*\0" little-endian or "MM\0*"
/// big-endian, then the offset of IFD0) whose IFD0 lists 12-byte entries of tag, type, count and value.
enum EXIFOrientation {
    /// The orientation IFD0 declares, clamped into 1...8 as decoders clamp it; nil when the block is not
    /// TIFF or has no such entry. A leading "Exif\0\0" (some PNG writers keep it) is skipped.
    static func read(tiff input: [UInt8]) -> Int? {
        var tiff = ArraySlice(input)
        if tiff.starts(with: Array("Exif\0\0".utf8)) { tiff = tiff.dropFirst(6) }
        let bytes = Array(tiff)
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x49, 0x49, 0x2A, 0x00): littleEndian = true
        case (0x4D, 0x4D, 0x00, 0x2A): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return littleEndian ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            // Type 3 (SHORT) is the only one the standard allows; its value sits in the first two
            // bytes of the value field.
            if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) {
                return min(max(value, 1), 8)
            }
        }
        return nil
    }
}
