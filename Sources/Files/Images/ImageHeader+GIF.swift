extension ImageHeader {
    /// The most extension blocks and sub-blocks walked before the first image descriptor.
    static let maxGIFBlocks = 65536

    /// A GIF's canvas as GIF decoders (libnsgif, which libvips uses) size it: the logical screen, unless
    /// it is one of the screen sizes broken encoders wrote instead of the image's (640x480, 640x512,
    /// 800x600, 1024x768, 1280x1024, 1600x1200), zero, or wider or taller than 2048, in which case it
    /// counts as 1x1; then grown to hold the first frame. The first frame is all a variant uses.
    static func parseGIF(_ reader: some ByteReader) -> ImageHeader? {
        guard var width = reader.uint16LE(at: 6), var height = reader.uint16LE(at: 8),
              let flags = reader.byte(at: 10) else { return nil }
        let implausible: Set<[Int]> = [[640, 480], [640, 512], [800, 600], [1024, 768], [1280, 1024], [1600, 1200]]
        if implausible.contains([width, height]) || width == 0 || height == 0 || width > 2048 || height > 2048 {
            width = 1
            height = 1
        }
        var offset = 13
        if flags & 0x80 != 0 { offset += 3 << ((Int(flags) & 0x07) + 1) }
        var blocks = 0
        while blocks < maxGIFBlocks {
            blocks += 1
            guard let introducer = reader.byte(at: offset) else { return nil }
            switch introducer {
            case 0x21:                                          // extension: label, then sub-blocks
                offset += 2
                while blocks < maxGIFBlocks {
                    blocks += 1
                    guard let size = reader.byte(at: offset) else { return nil }
                    offset += 1 + Int(size)
                    if size == 0 { break }
                }
            case 0x2C:                                          // image descriptor of the first frame
                guard let left = reader.uint16LE(at: offset + 1), let top = reader.uint16LE(at: offset + 3),
                      let frameWidth = reader.uint16LE(at: offset + 5),
                      let frameHeight = reader.uint16LE(at: offset + 7) else { return nil }
                width = max(width, left + frameWidth)
                height = max(height, top + frameHeight)
                guard plausible(width, height) else { return nil }
                return ImageHeader(format: .gif, storedWidth: width, storedHeight: height)
            default:
                return nil                                      // trailer or garbage: no frame to show
            }
        }
        return nil
    }
}
