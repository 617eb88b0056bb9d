import Core

/// The rendering of a stored object whose data goes out exactly as stored, written as bytes without
/// parsing it.
///
/// `ObjectRenderer.render` changes an object's data only in these ways: `_` fields are dropped, files get
/// their URL, relation fields of the schema get their descriptor, and protected fields, `keys` and
/// `excludeKeys` remove fields. When none of that can apply, its output is `objectId`, the stored members
/// in their stored order, `createdAt`, `updatedAt` and the ACL; and since the stored text was written by
/// the same serializer that writes answers (numbers as their text, strings escaped one way), splicing
/// that text in gives the very bytes that parsing and serializing it again would. The caller decides
/// whether the query's options and the schema allow it (`QueryRunner`, `ClassesRoutes.plainGet`); this
/// type checks the text itself and answers nil when the full rendering is needed.
enum PlainObjectBytes {
    /// The object's JSON bytes, or nil when its data holds something that rendering changes.
    static func render(_ stored: StoredText) -> [UInt8]? {
        var data = stored.data
        return data.withUTF8 { text -> [UInt8]? in
            guard text.count >= 2, text[0] == UInt8(ascii: "{"), text[text.count - 1] == UInt8(ascii: "}"),
                  !needsRendering(text) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(text.count + (stored.acl?.utf8.count ?? 0) + 110)
            out.append(contentsOf: #"{"objectId":"#.utf8)
            JSON.appendQuoted(stored.objectId, to: &out)
            if text.count > 2 {
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: text[1..<(text.count - 1)]))
            }
            out.append(contentsOf: #","createdAt":"#.utf8)
            JSON.appendQuoted(stored.createdAt, to: &out)
            out.append(contentsOf: #","updatedAt":"#.utf8)
            JSON.appendQuoted(stored.updatedAt, to: &out)
            if let acl = stored.acl {
                out.append(contentsOf: #","ACL":"#.utf8)
                out.append(contentsOf: acl.utf8)
            }
            out.append(UInt8(ascii: "}"))
            return out
        }
    }

    /// Whether the stored text holds a file (which gets its URL) or a top-level `_` member (which is
    /// hidden). Written by our serializer, the text has no whitespace outside strings. A string value that
    /// merely contains the file marker is a false alarm that only costs the full rendering.
    static func needsRendering(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var previous: UInt8 = 0
        for i in text.indices {
            let byte = text[i]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                // A member name of the object itself that starts with `_`.
                if depth == 1, previous == UInt8(ascii: "{") || previous == UInt8(ascii: ","),
                   i + 1 < text.count, text[i + 1] == UInt8(ascii: "_") { return true }
                if matches(text, at: i, fileMarker) { return true }
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            previous = byte
        }
        return false
    }

    /// A file value's type member as the serializer writes it.
    private static let fileMarker = Array(#""__type":"File""#.utf8)

    private static func matches(_ text: UnsafeBufferPointer<UInt8>, at start: Int, _ needle: [UInt8]) -> Bool {
        guard text.count - start >= needle.count else { return false }
        for (offset, byte) in needle.enumerated() where text[start + offset] != byte { return false }
        return true
    }
}
