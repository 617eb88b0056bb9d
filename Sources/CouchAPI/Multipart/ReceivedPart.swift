import Core
import HTTP

/// One attachment part of a multipart/related write as it was received: its headers' claims, its size and
/// MD5, and the spool holding its bytes. Confined to the thread reading the body.
final class ReceivedPart {
    /// `filename` of its `Content-Disposition`, if any.
    let filename: String?
    /// Its `Content-Length` header, if any (checked like the JSON's declared length).
    let contentLength: Int64?
    /// `Content-Encoding: gzip` on the part.
    let gzip: Bool
    /// Where its bytes are.
    let spool: any AttachmentSpool
    /// Bytes received.
    private(set) var size: Int64 = 0
    /// MD5 of the bytes, once the part is complete.
    private(set) var md5: [UInt8] = []
    private var stream: Crypto.MD5Stream? = Crypto.MD5Stream()

    init(filename: String?, contentLength: Int64?, gzip: Bool, spool: any AttachmentSpool) {
        self.filename = filename
        self.contentLength = contentLength
        self.gzip = gzip
        self.spool = spool
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
        try spool.write(bytes)
        stream?.update(bytes)
        size += Int64(bytes.count)
    }

    /// The part ended: its digest is final.
    func finish() {
        if let stream = stream.take() { md5 = stream.finalize() }
    }
}
