#if canImport(Glibc)
import Glibc
#endif
import Core
import HTTP
import Storage

/// Attachment data into and out of the blob store in its stored encoding (spec §4.7): identity, or gzip for
/// compressible types (`AttachmentCompression`) and for data that arrived gzip-encoded. `digest` is always the
/// MD5 of the stored bytes, as CouchDB computes it; `length` is the identity length.
enum AttachmentStorage {
    static let notGzipped = CouchError.badRequest("Attachment data is not properly gzipped.")

    /// Stores identity `bytes` (inline base64 data), compressed when `compression` takes its type.
    static func store(_ bytes: [UInt8], name: String, contentType: String, revpos: Int,
                      compression: AttachmentCompression, blobs: BlobStore) throws -> StoredAttachment {
        guard compression.compresses(contentType) else {
            let blob = try blobs.store(bytes: bytes)
            return StoredAttachment(name: name, contentType: contentType, length: Int64(bytes.count),
                                    digest: AttachmentDigest.string(md5: Crypto.md5(bytes)), revpos: revpos, blobHash: blob.hash)
        }
        let packed = try Compression.deflate(bytes, format: .gzip, level: compression.level)
        let blob = try blobs.store(bytes: packed)
        return StoredAttachment(name: name, contentType: contentType, length: Int64(bytes.count),
                                digest: AttachmentDigest.string(md5: Crypto.md5(packed)), revpos: revpos,
                                encoding: "gzip", encodedLength: Int64(packed.count), blobHash: blob.hash)
    }

    /// Stores an identity request body (standalone `PUT`) whose MD5 is `md5`, compressed when `compression`
    /// takes its type. A spooled body is compressed piece by piece into a file beside it, never held whole.
    static func store(body: RequestBody, md5: [UInt8], name: String, contentType: String,
                      compression: AttachmentCompression, blobs: BlobStore) throws -> StoredAttachment {
        guard case .file(let path, let length) = body else {
            let bytes = try body.readAll(limit: Int.max)
            if compression.compresses(contentType) {
                return try store(bytes, name: name, contentType: contentType, revpos: 0, compression: compression, blobs: blobs)
            }
            let blob = try blobs.store(bytes: bytes)
            return StoredAttachment(name: name, contentType: contentType, length: Int64(bytes.count),
                                    digest: AttachmentDigest.string(md5: md5), revpos: 0, blobHash: blob.hash)
        }
        guard compression.compresses(contentType) else {
            let blob = try blobs.store(fileAt: path)
            return StoredAttachment(name: name, contentType: contentType, length: Int64(length),
                                    digest: AttachmentDigest.string(md5: md5), revpos: 0, blobHash: blob.hash)
        }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let writer = try TempFileWriter(directory: directory.isEmpty ? "/" : directory, prefix: "quartet-gzip-")
        var digest = Crypto.MD5Stream()
        let deflater = try compression.deflater()
        do {
            try body.forEachChunk { chunk in
                try deflater.feed(chunk) { piece in
                    digest.update(piece)
                    try writer.write(piece)
                }
            }
            try deflater.finish { piece in
                digest.update(piece)
                try writer.write(piece)
            }
        } catch {
            writer.discard()
            throw error
        }
        let packed = writer.finish()
        defer { packed.removeTemporaryFile() }
        guard case .file(let packedPath, let packedLength) = packed else { throw CouchStoreError.corrupt("compressed spool") }
        let blob = try blobs.store(fileAt: packedPath)
        return StoredAttachment(name: name, contentType: contentType, length: Int64(length),
                                digest: AttachmentDigest.string(md5: digest.finalize()), revpos: 0,
                                encoding: "gzip", encodedLength: Int64(packedLength), blobHash: blob.hash)
    }

    /// Stores a gzip-encoded request body as received (standalone `PUT` with `Content-Encoding: gzip`, §3.5.3):
    /// `digest` = `md5` (of the received bytes), `encoded_length` = received size, `length` = decoded size,
    /// which must be at most `maxLength` (else 413 `attachment_too_large`). Data that does not decode → 400.
    static func storeGzip(body: RequestBody, md5: [UInt8], name: String, contentType: String, maxLength: Int,
                          blobs: BlobStore) throws -> StoredAttachment {
        let decoded: Int
        do {
            // Counted, not kept: a bomb costs CPU up to the limit and no memory.
            decoded = try GzipRequestBody.inflate(body, maxOutput: maxLength) { _ in }
        } catch let error as CompressionError {
            throw error == .outputTooLarge ? CouchError.attachmentTooLarge(name) : notGzipped
        }
        let blob: BlobReference
        switch body {
        case .empty: throw notGzipped
        case .bytes(let bytes): blob = try blobs.store(bytes: bytes)
        case .file(let path, _): blob = try blobs.store(fileAt: path)
        }
        return StoredAttachment(name: name, contentType: contentType, length: Int64(decoded),
                                digest: AttachmentDigest.string(md5: md5), revpos: 0,
                                encoding: "gzip", encodedLength: Int64(body.count), blobHash: blob.hash)
    }

    /// The identity bytes: gzip-stored data decoded (to at most `length` bytes, the size it was stored with).
    static func identityBytes(_ attachment: StoredAttachment, blobs: BlobStore, limit: Int) throws -> [UInt8] {
        let stored = try blobs.bytes(of: attachment.blobHash, limit: attachment.encoding == nil ? limit : Int.max)
        guard attachment.encoding == "gzip" else { return stored }
        do {
            return try Compression.inflate(stored, format: .gzip, maxOutput: min(limit, Int(clamping: attachment.length)))
        } catch {
            throw CouchStoreError.corrupt("gzip-stored attachment \(attachment.blobHash) does not decode to its length")
        }
    }

    /// `count` bytes of the file at `path` from `offset` (a byte range of a stored attachment).
    static func read(path: String, offset: Int, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIOError(operation: "open", path: path, code: errno) }
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = out.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(fd, base + filled, count - filled, off_t(offset + filled))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FileIOError(operation: "read", path: path, code: n < 0 ? errno : EIO) }
            filled += n
        }
        return out
    }
}
