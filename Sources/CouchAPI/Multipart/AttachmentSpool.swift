import Core
import Storage

/// Where the bytes of one multipart attachment part go while the body is read: a blob being written in the
/// server (`BlobWriter`), memory in tests and the fuzzer. Published only once every check passed.
protocol AttachmentSpool: AnyObject {
    /// Appends the next bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Makes the bytes durable and returns the blob hash that names them.
    func publish() throws -> String
    /// Drops the bytes (nothing happens after `publish`).
    func discard()
}

extension BlobWriter: AttachmentSpool {
    func publish() throws -> String {
        let reference: BlobReference = try publish()
        return reference.hash
    }
}

/// Keeps a part in memory; its "hash" is the SHA-256 of the bytes, as the blob store would name them.
final class MemorySpool: AttachmentSpool {
    private(set) var bytes: [UInt8] = []
    private(set) var discarded = false

    func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }
    func publish() throws -> String { Hex.encode(Crypto.sha256(bytes)) }
    func discard() {
        discarded = true
        bytes = []
    }
}
