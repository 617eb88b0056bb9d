import Core
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BlobStore {
    /// The whole content of blob `hash`, for answers that embed it (Couch inline attachment data). More than
    /// `limit` bytes, a missing blob or a malformed hash throw: callers bound what they hold in memory.
    public func bytes(of hash: String, limit: Int) throws -> [UInt8] {
        guard let path = path(for: hash), let size = FileIO.fileSize(path) else {
            throw StorageError.blob("blob \(hash) is missing")
        }
        guard size <= limit else { throw StorageError.blob("blob \(hash) is larger than \(limit) bytes") }
        let fd = try FileIO.open(path, O_RDONLY)
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let n = try out.withUnsafeMutableBytes { raw in
                try FileIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]), path: path)
            }
            if n == 0 { break }
            filled += n
        }
        // Blobs are immutable once published; a short read means the file changed under us.
        guard filled == size else { throw StorageError.blob("blob \(hash) was truncated") }
        return out
    }
}
