import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations the variant cache needs to publish files durably (fsync of the file
/// and of its directory, which Foundation does not offer) and to rebuild its index.
enum VariantFiles {
    /// Why a cache file operation failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func failure(_ what: String, _ path: String, code: Int32 = errno) -> Failure {
        Failure(description: "\(what) \(path): \(String(cString: strerror(code)))")
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "mkdir \(path): \(error)")
        }
    }

    /// Creates `path` (which must not exist) holding `bytes`, and fsyncs it.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create", path) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(fd, base + written, raw.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            written += n
        }
        guard fsync(fd) == 0 else { throw failure("fsync", path) }
    }

    /// fsync of the file or directory at `path`.
    static func sync(_ path: String, directory: Bool = false) throws {
        let fd = open(path, (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("fsync", path) }
    }

    /// Atomic rename within one file system.
    static func rename(_ from: String, _ to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw failure("rename", from) }
    }

    /// Removes a file; a missing one is not an error.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// The whole content of the regular file at `path` when it has exactly `size` bytes; nil otherwise (missing,
    /// another size, a read error).
    static func read(_ path: String, size: Int) -> [UInt8]? {
        guard size >= 0 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.read(fd, base + done, raw.count - done)
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        // One byte more would mean the file is larger than its entry says.
        var extra: UInt8 = 0
        guard Glibc.read(fd, &extra, 1) == 0 else { return nil }
        return bytes
    }

    /// Size and modification time (nanoseconds since 1970) of a regular file; nil otherwise.
    static func info(_ path: String) -> (size: Int, modified: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Names in a directory; empty when it cannot be read.
    static func list(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// 16 random lowercase hex digits.
    static func randomHex() -> String {
        let value = UInt64.random(in: 0...UInt64.max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
