/// Gathers the `.body` pieces of one request into a `RequestBody`: in memory up to a threshold, then
/// in a temporary file (unique name, mode 0600), so large uploads never sit in memory whole.
/// Confined to one thread, like the connection that feeds it.
public struct RequestBodyCollector {
    private let threshold: Int
    private let tempDirectory: String
    private var memory: [UInt8] = []
    private var file: TempFileWriter?

    /// Bodies up to `inMemoryThreshold` bytes stay in memory; larger ones go to `tempDirectory`.
    public init(inMemoryThreshold: Int, tempDirectory: String) {
        threshold = inMemoryThreshold
        self.tempDirectory = tempDirectory
    }

    /// Bytes collected so far.
    public var count: Int { file?.length ?? memory.count }

    /// Adds a piece; moves everything to a temporary file when the threshold is passed.
    public mutating func append(_ bytes: [UInt8]) throws(FileIOError) {
        if let file {
            try file.write(bytes)
        } else if memory.count + bytes.count > threshold {
            let writer = try TempFileWriter(directory: tempDirectory)
            try writer.write(memory)
            try writer.write(bytes)
            memory = []
            file = writer
        } else {
            memory.append(contentsOf: bytes)
        }
    }

    /// The collected body: `.empty`, `.bytes`, or `.file` (the caller deletes the file after the request
    /// with `RequestBody.removeTemporaryFile()`).
    public mutating func finish() -> RequestBody {
        if let file {
            self.file = nil
            return file.finish()
        }
        let bytes = memory
        memory = []
        return bytes.isEmpty ? .empty : .bytes(bytes)
    }

    /// Drops what was collected, deleting any temporary file (an aborted request).
    public mutating func discard() {
        file?.discard()
        file = nil
        memory = []
    }
}
