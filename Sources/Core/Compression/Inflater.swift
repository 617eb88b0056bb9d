import CZlib

/// Streaming decompression of gzip or zlib data with a bound on the output.
///
/// Input arrives in pieces of any size (`feed`); output leaves through the caller's sink in pieces of at
/// most 64 KiB, and decoding stops with `CompressionError.outputTooLarge` before the output would pass
/// `maxOutput`, so a few kilobytes that inflate to gigabytes cost no more than `maxOutput` bytes of sink
/// work and 64 KiB of memory here. gzip input may hold several members one after the other (RFC 1952 §2.2,
/// what `cat a.gz b.gz` makes); they decode as one stream. Confined to one thread.
public final class Inflater {
    /// The format being decoded.
    public let format: CompressionFormat
    /// Most output bytes allowed in total.
    public let maxOutput: Int
    /// Output bytes produced so far.
    public private(set) var outputCount = 0
    /// Input bytes consumed so far.
    public private(set) var inputCount = 0
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether the current member (or zlib stream) has reached its end.
    private var memberEnded = false
    private var failed = false
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    /// A decoder for `format` whose output may total at most `maxOutput` bytes.
    public init(format: CompressionFormat, maxOutput: Int) throws(CompressionError) {
        self.format = format
        self.maxOutput = max(0, maxOutput)
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init(stream, format.windowBits) == Z_OK else {
            stream.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decodes the next piece of input, handing each piece of output to `sink`. Throws `CompressionError`
    /// for corrupt input or output past the bound (after which the inflater refuses further input), or
    /// whatever `sink` throws.
    public func feed(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !failed else { throw CompressionError.corrupt }
        guard let base = input.baseAddress, input.count > 0 else { return }
        var offset = 0
        while offset < input.count {
            if memberEnded {
                // More bytes after a complete member: another gzip member; anything after a zlib stream is junk.
                guard format == .gzip, inflateReset(stream) == Z_OK else { return try fail(.corrupt) }
                memberEnded = false
            }
            // avail_in is 32 bits wide: very large pieces go in slices.
            let slice = min(input.count - offset, 1 << 30)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = UInt32(slice)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            try drain(sink)
            let consumed = slice - Int(stream.pointee.avail_in)
            offset += consumed
            inputCount += consumed
            // No progress without the end of a member means zlib wants more input than this piece has.
            if consumed == 0, !memberEnded { break }
        }
    }

    /// Declares the input complete: throws `CompressionError.truncated` unless it ended exactly at the end of
    /// a member (or of the zlib stream).
    public func finish() throws(CompressionError) {
        guard !failed else { throw .corrupt }
        guard memberEnded else {
            failed = true
            throw .truncated
        }
    }

    /// Runs inflate over the current input until it is used up or the member ends.
    private func drain(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        let capacity = scratch.count
        while true {
            let (code, produced) = scratch.withUnsafeMutableBytes { raw -> (Int32, Int) in
                stream.pointee.next_out = raw.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = UInt32(capacity)
                let code = inflate(stream, Z_NO_FLUSH)
                let produced = capacity - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
                stream.pointee.avail_out = 0
                return (code, produced)
            }
            switch code {
            case Z_OK, Z_STREAM_END, Z_BUF_ERROR: break
            case Z_MEM_ERROR: return try fail(.outOfMemory)
            default: return try fail(.corrupt)   // Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR
            }
            if produced > 0 {
                guard produced <= maxOutput &- outputCount else { return try fail(.outputTooLarge) }
                outputCount += produced
                try scratch.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            if code == Z_STREAM_END {
                memberEnded = true
                return
            }
            // Output space left over means zlib used all the input it could.
            if produced < capacity { return }
        }
    }

    private func fail(_ error: CompressionError) throws -> Void {
        failed = true
        throw error
    }
}
