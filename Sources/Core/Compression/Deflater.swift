import CZlib

/// Streaming compression to gzip or zlib. Output leaves through the caller's sink in pieces of at most
/// 64 KiB. Confined to one thread.
///
/// The output depends only on the input bytes, the level and zlib's fixed parameters here (largest window,
/// `memLevel` 8, default strategy) — not on how the input is split into pieces — which is what lets a
/// server reproduce another's compressed bytes (and so their digests) from the same input.
public final class Deflater {
    /// The format being written.
    public let format: CompressionFormat
    /// Input bytes consumed so far.
    public private(set) var inputCount = 0
    /// Output bytes produced so far.
    public private(set) var outputCount = 0
    private let stream: UnsafeMutablePointer<z_stream>
    private var finished = false
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    /// An encoder for `format` at `level` (1 fastest … 9 smallest; clamped to that range).
    public init(format: CompressionFormat, level: Int) throws(CompressionError) {
        self.format = format
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let level = Int32(min(9, max(1, level)))
        guard czlib_deflate_init(stream, level, format.windowBits, 8, Z_DEFAULT_STRATEGY) == Z_OK else {
            stream.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses the next piece of input.
    public func feed(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = input.baseAddress, input.count > 0, !finished else { return }
        var offset = 0
        while offset < input.count {
            let slice = min(input.count - offset, 1 << 30)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = UInt32(slice)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            try run(Z_NO_FLUSH, sink)
            offset += slice
            inputCount += slice
        }
    }

    /// Ends the stream: the last compressed bytes and the trailer go to `sink`. Later calls do nothing.
    public func finish(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !finished else { return }
        finished = true
        try run(Z_FINISH, sink)
    }

    private func run(_ flush: Int32, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        let capacity = scratch.count
        while true {
            let (code, produced) = scratch.withUnsafeMutableBytes { raw -> (Int32, Int) in
                stream.pointee.next_out = raw.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = UInt32(capacity)
                let code = deflate(stream, flush)
                let produced = capacity - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
                stream.pointee.avail_out = 0
                return (code, produced)
            }
            guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else { throw CompressionError.outOfMemory }
            if produced > 0 {
                outputCount += produced
                try scratch.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            if flush == Z_FINISH {
                if code == Z_STREAM_END { return }
            } else if stream.pointee.avail_in == 0, produced < capacity {
                return
            }
        }
    }
}
