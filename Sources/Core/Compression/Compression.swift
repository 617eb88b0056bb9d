/// One-shot compression over `Inflater` and `Deflater`, for data already in memory.
public enum Compression {
    /// The decoded bytes of `data`; throws `CompressionError` when it is corrupt, truncated or would decode
    /// to more than `maxOutput` bytes.
    public static func inflate(_ data: [UInt8], format: CompressionFormat, maxOutput: Int) throws(CompressionError) -> [UInt8] {
        var output: [UInt8] = []
        do {
            let inflater = try Inflater(format: format, maxOutput: maxOutput)
            try data.withUnsafeBytes { raw in try inflater.feed(raw) { output.append(contentsOf: $0) } }
            try inflater.finish()
        } catch let error as CompressionError {
            throw error
        } catch {
            throw .corrupt   // the sink above throws nothing else
        }
        return output
    }

    /// `data` compressed at `level` (1 … 9).
    public static func deflate(_ data: [UInt8], format: CompressionFormat, level: Int) throws(CompressionError) -> [UInt8] {
        var output: [UInt8] = []
        do {
            let deflater = try Deflater(format: format, level: level)
            try data.withUnsafeBytes { raw in try deflater.feed(raw) { output.append(contentsOf: $0) } }
            try deflater.finish { output.append(contentsOf: $0) }
        } catch let error as CompressionError {
            throw error
        } catch {
            throw .outOfMemory
        }
        return output
    }
}
