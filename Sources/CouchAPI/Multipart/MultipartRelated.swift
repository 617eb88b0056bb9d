import Core
import Storage

/// A revision with attachment data as multipart/related (spec §5.11.2's inner format, §5.11.3), in the byte
/// layout CouchDB emits (`couch_httpd_multipart:encode_multipart_stream/5`): `--I`, the JSON part, then per
/// attachment with data `\r\nContent-Disposition…\r\nContent-Type…\r\nContent-Length…[\r\nContent-Encoding: gzip]`,
/// `\r\n\r\n{bytes}\r\n--I`, and finally `--`.
struct MultipartRelated {
    /// The attachments of one revision split for a multipart answer.
    struct Attachments {
        /// The `_attachments` object text: `follows` entries for those with data, stubs for the rest.
        let json: [UInt8]
        /// Those sent as parts, in the revision's order.
        let withData: [StoredAttachment]
    }

    /// 32 random hex digits.
    let boundary: String
    private(set) var body: [UInt8] = []

    init(boundary: String = RandomID.hex(16)) {
        self.boundary = boundary
    }

    /// `multipart/related; boundary="{I}"`.
    var contentType: String { "multipart/related; boundary=\"\(boundary)\"" }

    /// The split of `attachments` for a reader that has the generation `since` (§5.6): data for `revpos > since`.
    /// Nil when none needs data (the answer is then plain JSON with stubs).
    static func split(_ attachments: [StoredAttachment], since: Int) -> Attachments? {
        guard AttachmentData.needsData(attachments, since: since) else { return nil }
        var object = JSONObject()
        var withData: [StoredAttachment] = []
        for attachment in attachments {
            if attachment.revpos > since {
                object[attachment.name] = AttachmentJSON.follows(attachment)
                withData.append(attachment)
            } else {
                object[attachment.name] = AttachmentJSON.stub(attachment)
            }
        }
        return Attachments(json: JSON.object(object).serializedBytes(), withData: withData)
    }

    /// The whole body: `document` (its `_attachments` from `split`), then each attachment's stored bytes from
    /// `blobs` (at most `limit` each). The bytes are read into the answer: the HTTP writer sends a body from
    /// memory, one file, or an unpaced chunk stream, none of which interleaves several files with text.
    static func body(boundary: String, document: [UInt8], attachments: [StoredAttachment], blobs: BlobStore,
                     limit: Int) throws -> [UInt8] {
        var related = MultipartRelated(boundary: boundary)
        related.appendDocument(document)
        for attachment in attachments {
            related.appendAttachment(attachment, bytes: try blobs.bytes(of: attachment.blobHash, limit: limit))
        }
        return related.finished()
    }

    mutating func appendDocument(_ json: [UInt8]) {
        body.append(contentsOf: "--\(boundary)\r\nContent-Type: application/json\r\n\r\n".utf8)
        body.append(contentsOf: json)
        body.append(contentsOf: "\r\n--\(boundary)".utf8)
    }

    /// One attachment part; its bytes as stored (gzip data stays gzip, with `Content-Encoding: gzip`).
    mutating func appendAttachment(_ attachment: StoredAttachment, bytes: [UInt8]) {
        body.append(contentsOf: "\r\nContent-Disposition: attachment; filename=\"\(Self.quoted(attachment.name))\"".utf8)
        body.append(contentsOf: "\r\nContent-Type: \(attachment.contentType)\r\nContent-Length: \(bytes.count)".utf8)
        if attachment.encoding == "gzip" { body.append(contentsOf: "\r\nContent-Encoding: gzip".utf8) }
        body.append(contentsOf: "\r\n\r\n".utf8)
        body.append(contentsOf: bytes)
        body.append(contentsOf: "\r\n--\(boundary)".utf8)
    }

    /// The finished body, ending with the close delimiter `--I--`.
    func finished() -> [UInt8] {
        body + Array("--".utf8)
    }

    /// Decision §5.11.2: `"` and `\` escaped with a backslash; other bytes raw UTF-8.
    static func quoted(_ name: String) -> String {
        var out = ""
        for character in name {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
