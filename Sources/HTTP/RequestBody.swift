#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A received request body: nothing, bytes in memory, or a temporary file for large bodies.
public enum RequestBody: Sendable, Equatable {
    /// No body.
    case empty
    /// Bodies up to the in-memory threshold.
    case bytes([UInt8])
    /// Larger bodies, spooled to a temp file; deleted after the request.
    case file(path: String, length: Int)

    /// The body's length in bytes.
    public var count: Int {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return bytes.count
        case .file(_, let length): return length
        }
    }

    /// All bytes; throws HTTPError.payloadTooLarge if more than `limit`. A file that cannot be read
    /// throws `FileIOError`.
    public func readAll(limit: Int) throws -> [UInt8] {
        guard count <= limit else { throw HTTPError.payloadTooLarge }
        switch self {
        case .empty:
            return []
        case .bytes(let bytes):
            return bytes
        case .file(let path, let length):
            var result: [UInt8] = []
            result.reserveCapacity(length)
            try forEachChunk(chunkSize: 1 << 16) { chunk in result.append(contentsOf: chunk) }
            // The file is ours and fixed once spooled; a different size means it was tampered with.
            guard result.count == length else {
                throw FileIOError(operation: "read", path: path, code: EIO)
            }
            return result
        }
    }

    /// Calls `body` with successive pieces of the body, at most `chunkSize` bytes each, reading a file
    /// body piece by piece so it is never held in memory whole. Throws `FileIOError` when the file cannot
    /// be read, or whatever `body` throws.
    public func forEachChunk(chunkSize: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch self {
        case .empty:
            return
        case .bytes(let bytes):
            try bytes.withUnsafeBytes { raw in
                var offset = 0
                let step = max(1, chunkSize)
                while offset < raw.count {
                    let end = min(raw.count, offset + step)
                    try body(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                    offset = end
                }
            }
        case .file(let path, let length):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileIOError(operation: "open", path: path, code: errno) }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
            var remaining = length
            while remaining > 0 {
                let got = buffer.withUnsafeMutableBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return -1 }
                    return read(fd, base, min(raw.count, remaining))
                }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw FileIOError(operation: "read", path: path, code: errno)
                }
                if got == 0 { break }
                remaining -= got
                try buffer.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[0..<got])) }
            }
        }
    }

    /// Deletes the temporary file of a `.file` body (no effect otherwise).
    public func removeTemporaryFile() {
        if case .file(let path, _) = self { unlink(path) }
    }
}
