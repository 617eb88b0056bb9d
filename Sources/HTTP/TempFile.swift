#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a temporary or body file could not be used.
public struct FileIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done ("create", "write", "open", "read").
    public let operation: String
    /// The file concerned.
    public let path: String
    /// The C `errno` value.
    public let code: Int32

    /// Creates an error for `operation` on `path` with `errno` `code`.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// "write /tmp/x: No space left on device", for logs.
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code)))"
    }
}

/// A temporary file being written: created with a unique name and mode 0600 (bodies may hold private
/// data), appended to, then either kept (`finish`) or removed (`discard`). Confined to one thread.
public final class TempFileWriter {
    /// The file's path.
    public let path: String
    /// Bytes written so far.
    public private(set) var length = 0
    private var descriptor: Int32

    /// Creates `<directory>/<prefix>XXXXXX` through mkstemp, which picks an unused name atomically.
    public init(directory: String, prefix: String = "quartet-body-") throws(FileIOError) {
        var template = Array("\(directory.hasSuffix("/") ? directory : directory + "/")\(prefix)XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        let createdPath = template.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard fd >= 0 else { throw FileIOError(operation: "create", path: createdPath, code: errno) }
        // mkstemp already uses 0600 on glibc; set it explicitly so a permissive umask or libc cannot widen it.
        _ = fchmod(fd, 0o600)
        descriptor = fd
        path = createdPath
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(path)
        }
    }

    /// Appends `bytes`, retrying short writes and interrupted calls.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileIOError) {
        guard descriptor >= 0 else { throw FileIOError(operation: "write", path: path, code: EBADF) }
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let written = posixWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileIOError(operation: "write", path: path, code: errno)
            }
            offset += written
        }
        length += bytes.count
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(FileIOError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(FileIOError) in try write(raw) } }
        try result.get()
    }

    /// Closes the file and keeps it; returns it as a request body.
    public func finish() -> RequestBody {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        return .file(path: path, length: length)
    }

    /// Closes and deletes the file.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(path)
    }
}

/// `write(2)` under a name the writer's own `write` methods do not shadow.
private func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}
