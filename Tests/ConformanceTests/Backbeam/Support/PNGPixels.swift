import Core

/// The pixels of an 8-bit, non-interlaced PNG (grey, RGB, grey with alpha or RGBA): enough to check what a
/// resized variant shows. Nil for anything else.
struct PNGPixels {
    let width: Int
    let height: Int
    /// Samples per pixel (1 grey, 2 grey and alpha, 3 RGB, 4 RGBA).
    let channels: Int
    /// Unfiltered rows, `width * channels` bytes each.
    private let rows: [[UInt8]]

    init?(_ png: [UInt8]) {
        guard png.count > 8, Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func be32(_ i: Int) -> Int? {
            guard i >= 0, i + 4 <= png.count else { return nil }
            return png[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        var header: (width: Int, height: Int, depth: UInt8, type: UInt8, interlace: UInt8)?
        var compressed: [UInt8] = []
        var i = 8
        while let length = be32(i), i + 12 + length <= png.count {
            let type = String(decoding: png[i + 4..<i + 8], as: UTF8.self)
            let data = i + 8
            if type == "IHDR", length >= 13, let w = be32(data), let h = be32(data + 4) {
                header = (w, h, png[data + 8], png[data + 9], png[data + 12])
            } else if type == "IDAT" {
                compressed += png[data..<data + length]
            } else if type == "IEND" {
                break
            }
            i += 12 + length
        }
        guard let header, header.depth == 8, header.interlace == 0, header.width > 0, header.height > 0 else { return nil }
        let channels: Int
        switch header.type {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        let stride = header.width * channels
        guard let raw = try? Compression.inflate(compressed, format: .zlib, maxOutput: (stride + 1) * header.height),
              raw.count == (stride + 1) * header.height else { return nil }
        var rows: [[UInt8]] = []
        var previous = [UInt8](repeating: 0, count: stride)
        for y in 0..<header.height {
            let start = y * (stride + 1)
            let filter = raw[start]
            var row = Array(raw[start + 1..<start + 1 + stride])
            for x in 0..<stride {
                let a = x >= channels ? Int(row[x - channels]) : 0
                let b = Int(previous[x])
                let c = x >= channels ? Int(previous[x - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: return nil
                }
                row[x] = UInt8(truncatingIfNeeded: Int(row[x]) + predictor)
            }
            rows.append(row)
            previous = row
        }
        width = header.width
        height = header.height
        self.channels = channels
        self.rows = rows
    }

    /// The red, green and blue of the pixel at (x, y) (grey repeated for a grey image).
    func rgb(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8)? {
        guard rows.indices.contains(y), x >= 0, x < width else { return nil }
        let p = x * channels
        let row = rows[y]
        return channels >= 3 ? (row[p], row[p + 1], row[p + 2]) : (row[p], row[p], row[p])
    }
}
