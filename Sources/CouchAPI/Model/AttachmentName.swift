/// Attachment name rules (spec §4.7). Names are opaque keys, never file paths: `../../etc/passwd` is a
/// legal name, stored and served like any other.
public enum AttachmentName {
    /// Validates a name that arrived as bytes (path segments re-joined with `/`) and returns it.
    public static func validate(utf8 bytes: [UInt8]) throws(CouchError) -> String {
        let name = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces ill-formed sequences with U+FFFD; equal bytes after the round trip mean valid UTF-8.
        guard name.utf8.elementsEqual(bytes) else { throw .badRequest("Attachment name is not UTF-8 encoded") }
        try validate(name)
        return name
    }

    /// Validates a name already known to be a string (a member name of `_attachments`).
    public static func validate(_ name: String) throws(CouchError) {
        // Decision §4.7: empty names and NUL are refused (wording ours), for the reasons ids refuse NUL.
        if name.isEmpty { throw .badRequest("Attachment name must not be empty") }
        if name.utf8.contains(0) { throw .badRequest("Attachment name must not contain NUL characters") }
        if name.utf8.first == UInt8(ascii: "_") {
            throw .badRequest("Attachment name '\(name)' starts with prohibited character '_'")
        }
    }
}
