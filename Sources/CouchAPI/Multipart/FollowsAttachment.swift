import Core

/// An `_attachments` member with `"follows":true` in the JSON part of a multipart/related write (spec §3.5.1,
/// §5.11.1): its data is one of the later parts.
struct FollowsAttachment: Sendable, Equatable {
    /// The member's name (validated as §4.7 says).
    let name: String
    /// `content_type`, `application/octet-stream` when absent.
    let contentType: String
    /// Declared identity length (`length`).
    let length: Int64?
    /// `true` for `"encoding":"gzip"`: the part holds gzip bytes, stored as received.
    let gzip: Bool
    /// Declared stored length of gzip data (`encoded_length`).
    let encodedLength: Int64?
    /// `digest` as sent: an `md5-…` one is checked against the part's bytes; other forms (Couchbase Lite's
    /// `sha1-…`) are ignored (§4.7).
    let digest: String?
    /// `revpos` as sent (kept by replicated writes only).
    let revpos: Int?

    static let badEncoding = CouchError.badContentType("Only gzip and identity content-encodings are supported")

    /// The `follows` members of `document`'s `_attachments`, in member order. Anything else in `_attachments`
    /// (stubs, inline data, a non-object) is left to the ordinary document validation.
    static func list(in document: JSONObject) throws(CouchError) -> [FollowsAttachment] {
        guard case .object(let members)? = document["_attachments"] else { return [] }
        var result: [FollowsAttachment] = []
        for (name, value) in members {
            guard case .object(let object) = value, object["follows"]?.boolValue == true else { continue }
            try AttachmentName.validate(name)
            var gzip = false
            if let encoding = object["encoding"] {
                switch encoding.stringValue?.lowercased() {
                case "gzip"?: gzip = true
                case "identity"?: gzip = false
                default: throw badEncoding
                }
            }
            result.append(FollowsAttachment(
                name: name, contentType: object["content_type"]?.stringValue ?? "application/octet-stream",
                length: try size(object["length"], "length", name), gzip: gzip,
                encodedLength: try size(object["encoded_length"], "encoded_length", name),
                digest: object["digest"]?.stringValue,
                revpos: object["revpos"]?.int64Value.flatMap { Int(exactly: $0) }))
        }
        return result
    }

    /// Whether `md5` (of the received bytes) agrees with an `md5-…` digest; true for no or another digest. An
    /// `md5-` digest that does not decode to 16 bytes matches nothing.
    func digestMatches(_ md5: [UInt8]) -> Bool {
        guard let digest, digest.hasPrefix("md5-") else { return true }
        return AttachmentDigest.md5(from: digest) == md5
    }

    /// The bytes the part must hold: `encoded_length` for gzip data, else `length` (nil when not declared).
    var expectedPartLength: Int64? { gzip ? encodedLength : length }

    /// A declared byte count: absent, or a non-negative integer.
    private static func size(_ value: JSON?, _ member: String, _ name: String) throws(CouchError) -> Int64? {
        guard let value else { return nil }
        guard let number = value.int64Value, number >= 0 else {
            throw CouchError.badRequest("Invalid \(member) for attachment \(name)")
        }
        return number
    }
}
