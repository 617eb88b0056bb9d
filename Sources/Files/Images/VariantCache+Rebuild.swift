import Dispatch

extension VariantCache {
    /// Indexes the variant files on disk, oldest first so that recency follows modification times;
    /// removes temp files a crash left, older copies of a variant, and whatever exceeds the bound (no
    /// response can be sending a file yet, so these go at once).
    func rebuild() {
        for name in VariantFiles.list(tempDirectory) {
            VariantFiles.remove(tempDirectory + "/" + name)
        }
        var found: [(key: VariantName, entry: Entry, modified: Int64)] = []
        for folder in VariantFiles.list(directory) where folder.utf8.count == 2 {
            for name in VariantFiles.list(directory + "/" + folder) {
                let path = directory + "/" + folder + "/" + name
                guard let (key, format) = Self.parse(name), name.hasPrefix(folder),
                      let info = VariantFiles.info(path) else { continue }
                found.append((key, Entry(path: path, size: info.size, format: format), info.modified))
            }
        }
        found.sort { $0.modified < $1.modified }
        var stale: [String] = []
        for item in found {
            // An insert of a key already present means an older copy: publish's rename never reuses names.
            let (replaced, evicted) = restore(item.key, item.entry)
            if let replaced { stale.append(replaced.path) }
            stale.append(contentsOf: evicted.map(\.path))
        }
        stale.forEach(VariantFiles.remove)
    }

    /// `<32 hex>-<16 hex>.<jpg|png|gif>` as (name, format); nil for any other file name.
    static func parse(_ name: String) -> (key: VariantName, format: ImageFormat)? {
        let bytes = Array(name.utf8)
        guard bytes.count >= 32 + 1 + 16 + 4, bytes[32] == UInt8(ascii: "-"), bytes[49] == UInt8(ascii: ".") else {
            return nil
        }
        func isHex(_ range: Range<Int>) -> Bool {
            bytes[range].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        guard isHex(0..<32), isHex(33..<49) else { return nil }
        let ext = String(decoding: bytes[50...], as: UTF8.self)
        guard let format = ImageFormat.allCases.first(where: { $0.fileExtension == ext }) else { return nil }
        guard let key = VariantName(hex: String(decoding: bytes[0..<32], as: UTF8.self)) else { return nil }
        return (key, format)
    }
}

/// Monotonic time for grace deadlines.
enum DispatchTimeNow {
    static func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
