import Core

/// Attachment digests in their wire form `md5-{base64 of the 16-byte MD5}` (spec §4.7).
///
/// The server always computes the digest of the bytes it stores; the raw 16 bytes enter revision ids
/// (§4.5), the text form is what `_attachments` shows and what `follows` parts are checked against.
public enum AttachmentDigest {
    /// `md5-…` for a 16-byte MD5 digest.
    public static func string(md5 digest: [UInt8]) -> String { "md5-" + Base64.encode(digest) }

    /// The 16 digest bytes of an `md5-…` string; nil for any other form (Couchbase Lite 1.x sends
    /// `sha1-…`, which is ignored and replaced) or for base64 that does not hold exactly 16 bytes.
    public static func md5(from text: String) -> [UInt8]? {
        guard text.hasPrefix("md5-"), let bytes = Base64.decode(String(text.dropFirst(4))), bytes.count == 16 else {
            return nil
        }
        return bytes
    }
}

extension RevisionHashAttachment {
    /// The hash entry of a stored attachment whose digest is kept in its `md5-…` form; nil when the
    /// digest is not an MD5 one (Quartet always stores MD5 digests, §4.5 notes).
    public init?(name: String, contentType: String, digest: String) {
        guard let md5 = AttachmentDigest.md5(from: digest) else { return nil }
        self.init(name: name, contentType: contentType, md5: md5)
    }
}
