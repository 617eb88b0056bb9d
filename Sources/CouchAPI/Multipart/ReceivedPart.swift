import Core
import HTTP

/// One attachment part of a multipart/related write as it was received: its headers' claims, its identity size
/// and MD5, and where its bytes went: as received (`spool`), gzip-compressed (`packed`), or both while it is not
/// yet known which the part's attachment needs. Confined to the thread reading the body.
final class ReceivedPart {
    /// How a part's bytes are kept while the body is read.
    enum Keeping {
        /// As received: a gzip part, or an identity part of a type not compressed.
        case received
        /// gzip-compressed: an identity part of a compressible type (spec §4.7, as CouchDB's `couch_stream`).
        case compressed
        /// Both, when the attachment the part belongs to (by order or by filename) decides between them.
        case both
    }

    /// The compressed copy of an identity part: its spool, encoder, and the MD5 and size of the gzip bytes.
    final class Packed {
        let spool: any AttachmentSpool
        private let deflater: Deflater
        /// Compressed bytes written.
        private(set) var size: Int64 = 0
        /// MD5 of the compressed bytes, once the part is complete.
        private(set) var md5: [UInt8] = []
        private var stream: Crypto.MD5Stream? = Crypto.MD5Stream()

        init(spool: any AttachmentSpool, deflater: Deflater) {
            self.spool = spool
            self.deflater = deflater
        }

        func append(_ bytes: UnsafeRawBufferPointer) throws {
            try deflater.feed(bytes) { try keep($0) }
        }

        func finish() throws {
            try deflater.finish { try keep($0) }
            if let stream = stream.take() { md5 = stream.finalize() }
        }

        private func keep(_ piece: UnsafeRawBufferPointer) throws {
            try spool.write(piece)
            stream?.update(piece)
            size += Int64(piece.count)
        }
    }

    /// `filename` of its `Content-Disposition`, if any.
    let filename: String?
    /// Its `Content-Length` header, if any (checked like the JSON's declared length).
    let contentLength: Int64?
    /// `Content-Encoding: gzip` on the part.
    let gzip: Bool
    /// The bytes as received (nil when only the compressed copy is kept).
    let spool: (any AttachmentSpool)?
    /// The compressed copy (nil when the part is kept as received only).
    let packed: Packed?
    /// Bytes received.
    private(set) var size: Int64 = 0
    /// MD5 of the bytes received, once the part is complete.
    private(set) var md5: [UInt8] = []
    private var stream: Crypto.MD5Stream? = Crypto.MD5Stream()

    init(filename: String?, contentLength: Int64?, gzip: Bool, spool: (any AttachmentSpool)?, packed: Packed? = nil) {
        self.filename = filename
        self.contentLength = contentLength
        self.gzip = gzip
        self.spool = spool
        self.packed = packed
    }

    /// Reads what the part's header block says; 415 for a `Content-Encoding` other than gzip or identity,
    /// 400 for a `Content-Length` that is not a number.
    static func claims(_ headers: MultipartPartHeaders) throws(CouchError) -> (filename: String?, length: Int64?, gzip: Bool) {
        var gzip = false
        if let encoding = headers.fields["Content-Encoding"]?.trimmingSpaces().lowercased(), !encoding.isEmpty {
            switch encoding {
            case "gzip": gzip = true
            case "identity": gzip = false
            default: throw FollowsAttachment.badEncoding
            }
        }
        var length: Int64?
        if let text = headers.fields["Content-Length"]?.trimmingSpaces() {
            guard let value = Int64(text), value >= 0 else { throw CouchError.badRequest("Invalid Content-Length of an attachment part") }
            length = value
        }
        return (headers.filename, length, gzip)
    }

    /// Appends content.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        try spool?.write(bytes)
        try packed?.append(bytes)
        stream?.update(bytes)
        size += Int64(bytes.count)
    }

    /// The part ended: its digests are final.
    func finish() throws {
        if let stream = stream.take() { md5 = stream.finalize() }
        try packed?.finish()
    }

    /// Drops whatever the part keeps.
    func discard() {
        spool?.discard()
        packed?.spool.discard()
    }
}
