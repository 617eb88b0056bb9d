import Core
import Storage

/// The `_attachments` member of a document write (spec §3.5.1, §4.7): stubs, inline base64 data and, in
/// multipart/related writes, `follows` members whose parts were already received.
enum AttachmentsInput {
    /// The attachments in member order. Inline data is decoded, checked against `maxAttachmentSize` and written
    /// to the blob store now, before the write job that references it (§4.7: blobs are durable before the
    /// commit). A write that then fails leaves an unreferenced blob, which garbage collection removes.
    /// `replicated`: a `revpos` sent with data is kept (interactive writes give data the new generation).
    /// `follows`: the attachments a multipart body carried, by name (nil for a JSON body, where `follows` is a 400).
    /// Inline data of the types `compression` takes is stored gzip-encoded, as CouchDB stores it.
    /// `compression` is only evaluated for a body with attachments: `CouchConfig.attachmentCompression`
    /// builds its list of types on each use (about 8,000 instructions), which a replicated `_bulk_docs`
    /// element without attachments would otherwise pay.
    static func parse(_ members: JSONObject?, blobs: BlobStore, maxAttachmentSize: Int,
                      compression: @autoclosure () -> AttachmentCompression,
                      replicated: Bool, follows: [String: StoredAttachment]? = nil) throws -> [AttachmentInput] {
        guard let members, !members.isEmpty else { return [] }
        let compression = compression()
        var inputs: [AttachmentInput] = []
        inputs.reserveCapacity(members.count)
        for (name, value) in members {
            try AttachmentName.validate(name)
            guard case .object(let object) = value else { throw CouchError.badSpecialMember("_attachments") }
            let revpos = object["revpos"]?.int64Value.flatMap { Int(exactly: $0) }
            if object["stub"]?.boolValue == true {
                inputs.append(.stub(name: name, revpos: revpos))
                continue
            }
            if object["follows"]?.boolValue == true {
                guard let received = follows?[name] else {
                    throw CouchError.badRequest("Attachment \(name) has follows, which needs a multipart/related request")
                }
                inputs.append(.data(received, keepRevpos: replicated))
                continue
            }
            guard let dataValue = object["data"] else {
                throw CouchError.badRequest("Attachment \(name) has neither data nor a stub")
            }
            guard case .string(let text) = dataValue, let bytes = decodeData(text) else {
                throw CouchError.badRequest("Invalid attachment data for \(name)")
            }
            guard bytes.count <= maxAttachmentSize else { throw CouchError.attachmentTooLarge(name) }
            let contentType = object["content_type"]?.stringValue ?? "application/octet-stream"
            // Digests are always the server's own (§4.7): any digest or length sent along is ignored.
            let stored = try AttachmentStorage.store(bytes, name: name, contentType: contentType,
                                                     revpos: replicated ? (revpos ?? 0) : 0,
                                                     compression: compression, blobs: blobs)
            inputs.append(.data(stored, keepRevpos: replicated))
        }
        return inputs
    }

    /// Standard base64 with whitespace ignored and padding optional (§3.5.1); nil when it does not decode.
    static func decodeData(_ text: String) -> [UInt8]? {
        var compact = Array(text.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
        switch compact.count % 4 {
        case 0: break
        case 2: compact += [UInt8(ascii: "="), UInt8(ascii: "=")]
        case 3: compact.append(UInt8(ascii: "="))
        default: return nil
        }
        return Base64.decode(String(decoding: compact, as: UTF8.self))
    }
}
