import HTTP
import Storage

/// Uploads into the content-addressed blob store.
public enum Uploads {
    /// Checks `body` against `limits` and stores it in `blobs`: a body the server spooled to a temporary
    /// file (every body above the in-memory threshold) is streamed from that file while it is hashed, never
    /// held in memory whole; a small one is written from memory. Either way the blob is written to a temp
    /// file, fsynced, renamed into place and its directory fsynced before this returns. No reference is
    /// taken: retain the blob in the write job that records its use (`BlobStore.retain`).
    ///
    /// Throws `UploadError` before anything is written, or what the blob store throws.
    public static func store(_ body: RequestBody, in blobs: BlobStore, limits: UploadLimits) throws -> BlobReference {
        try limits.check(size: body.count)
        switch body {
        case .file(let path, _): return try blobs.store(fileAt: path)
        case .bytes(let bytes): return try blobs.store(bytes: bytes)
        case .empty: return try blobs.store(bytes: [])
        }
    }
}
