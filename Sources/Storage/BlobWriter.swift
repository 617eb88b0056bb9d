import Core
#if canImport(Glibc)
import Glibc
#endif

extension BlobStore {
    /// Starts a blob whose content arrives in pieces (a multipart part being received): written to a temporary
    /// file in the store's temp directory, hashed on the way, and published only by `BlobWriter.publish()`.
    public func writer() throws -> BlobWriter {
        // A random name, and O_EXCL, so concurrent writers never share a temp file; the prefix and suffix are
        // the ones start-up collection removes after a crash.
        let name = Self.tempPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16) + Self.tempSuffix
        let path = tempDirectory + "/" + name
        let fd = try FileIO.open(path, O_WRONLY | O_CREAT | O_EXCL)
        return BlobWriter(store: self, fd: fd, path: path)
    }
}

/// A blob being written piece by piece (`BlobStore.writer()`). `publish` syncs the file and moves it to its
/// content address (temp file, fsync, rename, fsync directory, as `BlobStore.store` does); `discard` removes
/// it. A writer dropped without either removes its file. Confined to one thread.
public final class BlobWriter {
    private let store: BlobStore
    private var fd: Int32
    private let path: String
    private var digest: Crypto.SHA256Stream? = Crypto.SHA256Stream()
    /// Bytes written so far.
    public private(set) var size = 0

    init(store: BlobStore, fd: Int32, path: String) {
        self.store = store
        self.fd = fd
        self.path = path
    }

    deinit { discard() }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw StorageError.blob("write to a finished blob writer") }
        try FileIO.writeAll(fd, bytes, path: path)
        digest?.update(bytes)
        size += bytes.count
    }

    /// Makes the content durable and addressable, and returns its reference (no reference count is taken:
    /// the write job that records its use retains it). The writer is finished afterwards.
    public func publish() throws -> BlobReference {
        guard fd >= 0, let digest = digest.take() else { throw StorageError.blob("blob writer already finished") }
        let hash = Hex.encode(digest.finalize())
        do {
            try FileIO.sync(fd, path: path)
        } catch {
            discard()
            throw error
        }
        close(fd)
        fd = -1
        return try store.publish(temp: path, hash: hash, size: size)
    }

    /// Removes the temporary file (nothing happens once published or discarded).
    public func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        _ = FileIO.unlinkIfPresent(path)
    }
}
