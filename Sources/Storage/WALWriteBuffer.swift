import CSQLite
import CWALBuffer

/// The write connection's WAL writes, gathered into one `pwrite` per commit by the VFS in `CWALBuffer`.
///
/// SQLite writes every WAL frame as two calls (its 24-byte header, then the page), so a group commit of a
/// hundred pages made two hundred trips through the kernel's write path. With the buffer it makes one, and
/// the file holds every frame before SQLite syncs it and publishes the commit to readers.
public enum WALWriteBuffer {
    /// The modes in which SQLite syncs the WAL at every commit before readers can see it, the condition for
    /// buffering its writes (at NORMAL or OFF a commit is published without a sync).
    static let bufferedModes: Set<String> = ["FULL", "EXTRA"]

    /// The name of the VFS the write connection of `options` opens with, registered on first use; nil when
    /// the buffer is off (`walWriteBufferBytes == 0`) or the synchronous mode does not allow it.
    static func vfsName(for options: StorageOptions) throws -> String? {
        guard options.walWriteBufferBytes > 0, bufferedModes.contains(options.synchronous.uppercased()) else {
            return nil
        }
        // Registering initialises the library, which must not happen before its process-wide settings.
        _ = Database.libraryConfigured
        let name = "quartet-wal-\(options.walWriteBufferBytes)"
        let rc = quartet_wal_buffer_register(name, UInt32(clamping: options.walWriteBufferBytes))
        guard rc == SQLITE_OK else { throw StorageError.from(code: rc, connection: nil) }
        return name
    }

    /// Process-wide totals: writes SQLite made to buffered WAL files, and the writes of those files that
    /// reached the file system.
    public static var counters: (sqliteWrites: UInt64, fileWrites: UInt64) {
        var sqlite: UInt64 = 0
        var file: UInt64 = 0
        quartet_wal_buffer_counters(&sqlite, &file)
        return (sqlite, file)
    }
}
