/// The file objects of §5.3: an object of entity `file` whose content lives in the blob store. Kept apart
/// from `BackbeamStore` because only a store with a blob store can hold files (`SQLiteBackbeamStore` made
/// with one).
public protocol BackbeamFileStore: Sendable {
    /// Records `content` (already durable in the blob store) as the content of a file object, in one
    /// transaction with `request`'s commands: a new object at version 1 when `request.id` is nil, else the
    /// next version of the file `request.id` (nil when there is no file with that id). The blob is retained,
    /// the one it replaces released. The server-managed fields (`version`, `filename`, `mime`, `size`,
    /// `width`, `height`) are written from `content`.
    func writeFile(_ request: WriteRequest, content: FileContent) throws -> ObjectRecord?
    /// The current content of the file `id`, or nil when the environment has no file with that id.
    func fileContent(space: SpaceID, id: String) throws -> StoredFileContent?
    /// `fileContent` for a caller that must not wait (an HTTP I/O thread): nil as well when no read
    /// connection is free at once. The default answers nil (not at hand).
    func fileContentIfAtHand(space: SpaceID, id: String) throws -> StoredFileContent?
}

extension BackbeamFileStore {
    public func fileContentIfAtHand(space: SpaceID, id: String) throws -> StoredFileContent? { nil }
}

/// Uploaded content as the upload endpoints describe it to the store.
public struct FileContent: Sendable, Equatable {
    /// The SHA-256 hex of the content in the blob store.
    public var blob: String
    /// Its size in bytes.
    public var size: Int
    /// The sanitised file name (§5.3.4).
    public var filename: String
    /// The MIME type recorded for it.
    public var mime: String
    /// Upright pixel size for JPEG, PNG and GIF content whose header could be read.
    public var width: Int?
    public var height: Int?

    /// Content with its metadata.
    public init(blob: String, size: Int, filename: String, mime: String, width: Int? = nil, height: Int? = nil) {
        self.blob = blob
        self.size = size
        self.filename = filename
        self.mime = mime
        self.width = width
        self.height = height
    }
}

/// What a download needs of a file: where its content is and which version it is.
public struct StoredFileContent: Sendable, Equatable {
    /// The SHA-256 hex of the content in the blob store.
    public var blob: String
    /// The current version (1, 2, ...).
    public var version: Int
    /// The recorded MIME type.
    public var mime: String
    /// Size in bytes.
    public var size: Int
    /// When this version was uploaded (ms).
    public var uploadedAt: Int64
}
