import Core

/// How attachments appear inside a document's `_attachments` (spec §3.5.1).
enum AttachmentJSON {
    /// A stub: `{"content_type":…,"revpos":N,"digest":"md5-…","length":N,"stub":true}` (CouchDB's member
    /// order), then `encoding`/`encoded_length` when `encodingInfo` asks for them (`att_encoding_info`, P2) and
    /// the attachment is stored compressed (after `stub`, where CouchDB's `couch_att:to_json` puts them).
    static func stub(_ attachment: StoredAttachment, encodingInfo: Bool = false) -> JSON {
        var object = JSONObject()
        object["content_type"] = .string(attachment.contentType)
        object["revpos"] = .int(attachment.revpos)
        object["digest"] = .string(attachment.digest)
        object["length"] = .number(JSONNumber(attachment.length))
        object["stub"] = .bool(true)
        if encodingInfo, let encoding = attachment.encoding {
            object["encoding"] = .string(encoding)
            if let encoded = attachment.encodedLength { object["encoded_length"] = .number(JSONNumber(encoded)) }
        }
        return .object(object)
    }

    /// An attachment whose bytes follow as a multipart part: `{"content_type":…,"revpos":N,"digest":"md5-…","length":N,
    /// "follows":true}`, plus `encoding`/`encoded_length` for gzip-stored data (sent as stored, §3.5.1).
    static func follows(_ attachment: StoredAttachment) -> JSON {
        var object = JSONObject()
        object["content_type"] = .string(attachment.contentType)
        object["revpos"] = .int(attachment.revpos)
        object["digest"] = .string(attachment.digest)
        object["length"] = .number(JSONNumber(attachment.length))
        if let encoding = attachment.encoding {
            object["encoding"] = .string(encoding)
            if let encoded = attachment.encodedLength { object["encoded_length"] = .number(JSONNumber(encoded)) }
        }
        object["follows"] = .bool(true)
        return .object(object)
    }

    /// Inline data (`attachments=true`): `{"content_type":…,"revpos":N,"digest":"md5-…","data":"<base64>"}`,
    /// without `length`, as CouchDB writes it. `data` is always the identity bytes; with `encodingInfo`
    /// (`att_encoding_info=true`) a gzip-stored attachment still says `encoding` and `encoded_length` after
    /// `data`, as CouchDB's `couch_att:to_json` does whatever form the data takes.
    static func inline(_ attachment: StoredAttachment, data: [UInt8], encodingInfo: Bool = false) -> JSON {
        var object = JSONObject()
        object["content_type"] = .string(attachment.contentType)
        object["revpos"] = .int(attachment.revpos)
        object["digest"] = .string(attachment.digest)
        object["data"] = .string(Base64.encode(data))
        if encodingInfo, let encoding = attachment.encoding {
            object["encoding"] = .string(encoding)
            if let encoded = attachment.encodedLength { object["encoded_length"] = .number(JSONNumber(encoded)) }
        }
        return .object(object)
    }

    /// The `_attachments` object of stubs, in the revision's order.
    static func stubs(_ attachments: [StoredAttachment], encodingInfo: Bool = false) -> JSONObject {
        var object = JSONObject()
        for attachment in attachments { object[attachment.name] = stub(attachment, encodingInfo: encodingInfo) }
        return object
    }

    /// The stubs object as compact JSON text, as the document row keeps it for its winner; nil when there
    /// are no attachments. `encodingInfo`: as for `stub`.
    static func stubsText(_ attachments: [StoredAttachment], encodingInfo: Bool = false) -> [UInt8]? {
        attachments.isEmpty ? nil : JSON.object(stubs(attachments, encodingInfo: encodingInfo)).serializedBytes()
    }
}
