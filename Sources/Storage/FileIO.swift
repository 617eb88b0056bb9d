import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX file helpers for durable writes: the blob store and backups need fsync of files and
/// directories, which Foundation's file APIs do not offer.
enum FileIO {
    /// Bytes per read/write when streaming files.
    static let chunkSize = 64 * 1024

    /// A typed error for the failed call `what`, from `errno` (ENOSPC/EDQUOT become `.full`).
    static func error(_ what: String, code: Int32 = errno) -> StorageError {
        let text = String(cString: strerror(code))
        if code == ENOSPC || code == EDQUOT { return .full("\(what): \(text)") }
        return .ioError("\(what): \(text)")
    }

    /// Opens `path` with `flags`, retrying on EINTR.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw error("open \(path)") }
        }
    }

    /// Writes every byte of `bytes` to `fd`, continuing after short writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let n = Glibc.write(fd, base + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                throw error("write \(path)")
            }
            written += n
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        while true {
            let n = Glibc.read(fd, base, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw error("read \(path)") }
        }
    }

    /// fsync, so the bytes are on stable storage before the file is published by rename.
    static func sync(_ fd: Int32, path: String) throws {
        guard fsync(fd) == 0 else { throw error("fsync \(path)") }
    }

    /// fsync of a directory, which makes a rename, create or unlink inside it durable.
    static func syncDirectory(_ path: String) throws {
        let fd = try open(path, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try sync(fd, path: path)
    }

    /// `mkdir -p`; every directory it creates is made durable in its parent.
    static func makeDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 {
            if errno == EEXIST, isDirectory(path) { return }
            throw error("mkdir \(path)")
        }
        if !parent.isEmpty { try syncDirectory(parent) }
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Size of a regular file, or nil when missing or not a regular file.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Modification time in Unix milliseconds, or nil when missing.
    static func modifiedMillis(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
    }

    /// Sets the modification time to now.
    static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, 0)
    }

    /// Removes a file; a missing file is not an error.
    @discardableResult
    static func unlinkIfPresent(_ path: String) -> Bool {
        Glibc.unlink(path) == 0
    }

    /// Renames within one file system (atomic replace of `to`).
    static func rename(_ from: String, _ to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw error("rename \(from) to \(to)") }
    }

    /// Names in a directory (no "." or ".."); empty when it cannot be read.
    static func list(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// Streams `source` into `destination` (created, must not exist), fsyncs it, and returns the byte count.
    @discardableResult
    static func copyFile(_ source: String, to destination: String) throws -> Int {
        let input = try open(source, O_RDONLY)
        defer { close(input) }
        let output = try open(destination, O_WRONLY | O_CREAT | O_EXCL)
        defer { close(output) }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try read(input, into: $0, path: source) }
            if n == 0 { break }
            try buffer.withUnsafeBytes { try writeAll(output, UnsafeRawBufferPointer(rebasing: $0[0..<n]), path: destination) }
            total += n
        }
        try sync(output, path: destination)
        return total
    }
}
