import Core
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stored blob: its SHA-256 (64 lowercase hex digits) and size in bytes.
public struct BlobReference: Sendable, Hashable {
    /// Lowercase hex SHA-256 of the content; also its address on disk.
    public let hash: String
    /// Size in bytes.
    public let size: Int

    /// A reference to content with this hash and size.
    public init(hash: String, size: Int) {
        self.hash = hash
        self.size = size
    }
}

/// Content-addressed blobs on disk (sha256 hex), atomic writes, refcounts in `quartet_blobs`.
///
/// Layout: `<directory>/ab/cd/<hash>` where ab and cd are the hash's first two byte pairs (keeps
/// directories small); in-progress writes live in `<directory>/tmp` on the same file system so the
/// final rename is atomic.
public final class BlobStore: Sendable {
    /// Root of the store.
    public let directory: String
    let storage: Storage
    let tempDirectory: String
    /// Serializes publishing a file (rename or touch of an existing one) with garbage collection's
    /// unlink, so a blob just handed out by `store` is never deleted underneath it.
    let fileLock = NSLock()
    /// Blobs seen on disk a moment ago, for `recentlyContains`.
    let presence: BlobPresenceMemo

    /// Opens (creating the directories if needed) the store at `directory`; refcounts live in `storage`,
    /// which must have migration 0001 applied. In-progress writes go to `tempDirectory` (default
    /// `<directory>/tmp`), which must be on the same file system so the final rename is atomic; it may be
    /// shared with other temp files, as only this store's `blob-*.tmp` files are ever collected there.
    public convenience init(directory: String, storage: Storage, tempDirectory: String? = nil) throws {
        try self.init(directory: directory, storage: storage, tempDirectory: tempDirectory, presence: BlobPresenceMemo())
    }

    init(directory: String, storage: Storage, tempDirectory: String?, presence: BlobPresenceMemo) throws {
        self.directory = directory
        self.storage = storage
        self.presence = presence
        self.tempDirectory = tempDirectory ?? (directory as NSString).appendingPathComponent("tmp")
        try FileIO.makeDirectories(directory)
        try FileIO.makeDirectories(self.tempDirectory)
    }

    /// True for 64 lowercase hex digits.
    public static func isValidHash(_ hash: String) -> Bool {
        guard hash.utf8.count == 64 else { return false }
        // A loop over the bytes: `utf8.allSatisfy` with a closure cost about 35 instructions per digit, and a
        // cached download checks its original's hash on every request.
        var hash = hash
        return hash.withUTF8 { bytes in
            for byte in bytes where !(byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                && !(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) {
                return false
            }
            return true
        }
    }

    /// Whether the blob `hash` is stored: what `path(for: hash) != nil` answers, with the path put together
    /// in a stack buffer instead of five strings (for a check made on every request, such as a download
    /// answered from memory that must still find its original).
    public func contains(_ hash: String) -> Bool {
        guard Self.isValidHash(hash) else { return false }
        var directory = directory
        var hash = hash
        return directory.withUTF8 { dir in
            hash.withUTF8 { digits in
                // directory "/" 2 digits "/" 2 digits "/" 64 digits NUL
                let length = dir.count + 1 + 2 + 1 + 2 + 1 + digits.count + 1
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer -> Bool in
                    guard let base = buffer.baseAddress, let dirBase = dir.baseAddress, let hashBase = digits.baseAddress,
                          buffer.count == length, digits.count == 64 else { return false }
                    var index = 0
                    func put(_ source: UnsafePointer<UInt8>, _ count: Int) {
                        (base + index).update(from: source, count: count)
                        index += count
                    }
                    func put(_ byte: UInt8) {
                        base[index] = byte
                        index += 1
                    }
                    put(dirBase, dir.count)
                    put(UInt8(ascii: "/"))
                    put(hashBase, 2)
                    put(UInt8(ascii: "/"))
                    put(hashBase + 2, 2)
                    put(UInt8(ascii: "/"))
                    put(hashBase, digits.count)
                    put(0)
                    // A directory path holding NUL names another file than the string would: ask the slow way.
                    if memchr(base, 0, index - 1) != nil { return path(for: String(decoding: digits, as: UTF8.self)) != nil }
                    var info = stat()
                    return base.withMemoryRebound(to: CChar.self, capacity: length) { stat($0, &info) } == 0
                        && (info.st_mode & S_IFMT) == S_IFREG
                }
            }
        }
    }

    /// `contains`, answered from memory for a blob seen on disk within the last second when this store has
    /// removed no blob file since (see `BlobPresenceMemo`): for a check made on every request of a hot path,
    /// where one `stat` per request was a sixth of its system calls. A file removed from outside the store is
    /// noticed up to a second late.
    public func recentlyContains(_ hash: String) -> Bool {
        presence.contains(hash) { contains($0) }
    }

    /// Where the blob `hash` lives (whether or not it exists); nil for a malformed hash.
    func location(for hash: String) -> (directory: String, file: String)? {
        guard Self.isValidHash(hash) else { return nil }
        // The hash is 64 ASCII hex digits (checked above): slice its bytes, not its Characters.
        let bytes = hash.utf8
        let dir = directory + "/" + String(decoding: bytes.prefix(2), as: UTF8.self) + "/"
            + String(decoding: bytes.dropFirst(2).prefix(2), as: UTF8.self)
        return (dir, dir + "/" + hash)
    }

    /// The file holding `hash`; nil if the hash is malformed or the blob is missing.
    public func path(for hash: String) -> String? {
        guard let location = location(for: hash), FileIO.fileSize(location.file) != nil else { return nil }
        return location.file
    }

    /// Stores `bytes`: temp file, fsync, rename, fsync directory. Storing existing content is a cheap
    /// no-op. No reference is taken yet: `retain` it inside the write job that records its use.
    public func store(bytes: [UInt8]) throws -> BlobReference {
        let hash = Hex.encode(Crypto.sha256(bytes))
        if let location = location(for: hash), FileIO.fileSize(location.file) == bytes.count {
            refresh(location.file)
            return BlobReference(hash: hash, size: bytes.count)
        }
        let temp = try writeTempFile { fd, path in
            try bytes.withUnsafeBytes { try FileIO.writeAll(fd, $0, path: path) }
        }
        return try publish(temp: temp, hash: hash, size: bytes.count)
    }

    /// Stores the file at `path` (for example a spooled upload), streaming it in chunks while hashing.
    public func store(fileAt path: String) throws -> BlobReference {
        let input = try FileIO.open(path, O_RDONLY)
        defer { close(input) }
        var digest = Crypto.SHA256Stream()
        var size = 0
        let temp = try writeTempFile { fd, tempPath in
            var buffer = [UInt8](repeating: 0, count: FileIO.chunkSize)
            while true {
                let n = try buffer.withUnsafeMutableBytes { try FileIO.read(input, into: $0, path: path) }
                if n == 0 { break }
                try buffer.withUnsafeBytes { raw in
                    let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                    digest.update(chunk)
                    try FileIO.writeAll(fd, chunk, path: tempPath)
                }
                size += n
            }
        }
        return try publish(temp: temp, hash: Hex.encode(digest.finalize()), size: size)
    }

    /// Moves a complete, synced temp file to its address (or drops it when the content already exists).
    func publish(temp: String, hash: String, size: Int) throws -> BlobReference {
        guard let location = location(for: hash) else {
            FileIO.unlinkIfPresent(temp)
            throw StorageError.blob("computed a malformed hash")
        }
        do {
            try fileLock.withLock {
                try FileIO.makeDirectories(location.directory)
                if FileIO.fileSize(location.file) == size {
                    FileIO.unlinkIfPresent(temp)
                    FileIO.touch(location.file)
                } else {
                    // rename replaces a damaged file of the wrong size atomically.
                    try FileIO.rename(temp, location.file)
                    try FileIO.syncDirectory(location.directory)
                }
            }
        } catch {
            FileIO.unlinkIfPresent(temp)
            throw error
        }
        return BlobReference(hash: hash, size: size)
    }

    /// Marks an existing blob as freshly stored, so garbage collection leaves it alone until it is
    /// retained (collection only removes files untouched for its whole age threshold).
    private func refresh(_ file: String) {
        fileLock.withLock { FileIO.touch(file) }
    }

    static let tempPrefix = "blob-"
    static let tempSuffix = ".tmp"

    /// Creates a fresh temp file, lets `fill` write it, then syncs and closes it and returns its path.
    /// On any failure the file is closed and removed, so no partial temp file is left behind.
    private func writeTempFile(_ fill: (_ fd: Int32, _ path: String) throws -> Void) throws -> String {
        // A random name, and O_EXCL, so concurrent stores never share a temp file.
        let name = Self.tempPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16) + Self.tempSuffix
        let path = tempDirectory + "/" + name
        let fd = try FileIO.open(path, O_WRONLY | O_CREAT | O_EXCL)
        do {
            try fill(fd, path)
            try FileIO.sync(fd, path: path)
            close(fd)
        } catch {
            close(fd)
            FileIO.unlinkIfPresent(path)
            throw error
        }
        return path
    }
}
