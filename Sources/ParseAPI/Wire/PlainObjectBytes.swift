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
        var out: [UInt8] = []
        out.reserveCapacity(stored.data.count + (stored.acl?.count ?? 0) + stored.objectId.utf8.count + 100)
        var objectId = stored.objectId, createdAt = stored.createdAt, updatedAt = stored.updatedAt
        let written = objectId.withUTF8 { id in
            createdAt.withUTF8 { created in
                updatedAt.withUTF8 { updated in
                    stored.data.withUnsafeBufferPointer { data in
                        guard let acl = stored.acl else {
                            return append(objectId: id, data: data, acl: nil, createdAt: created, updatedAt: updated,
                                          to: &out)
                        }
                        return acl.withUnsafeBufferPointer {
                            append(objectId: id, data: data, acl: $0, createdAt: created, updatedAt: updated, to: &out)
                        }
                    }
                }
            }
        }
        return written ? out : nil
    }

    /// Appends the object's JSON to `out` and returns true, or leaves `out` alone and returns false when
    /// its data holds something that rendering changes.
    static func append(objectId: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>,
                       acl: UnsafeBufferPointer<UInt8>?, createdAt: UnsafeBufferPointer<UInt8>,
                       updatedAt: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        guard data.count >= 2, data[0] == UInt8(ascii: "{"), data[data.count - 1] == UInt8(ascii: "}"),
              !needsRendering(data) else { return false }
        out.append(contentsOf: #"{"objectId":"#.utf8)
        JSON.appendQuoted(utf8: objectId, to: &out)
        if data.count > 2 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: data[1..<(data.count - 1)]))
        }
        out.append(contentsOf: #","createdAt":"#.utf8)
        JSON.appendQuoted(utf8: createdAt, to: &out)
        out.append(contentsOf: #","updatedAt":"#.utf8)
        JSON.appendQuoted(utf8: updatedAt, to: &out)
        if let acl {
            out.append(contentsOf: #","ACL":"#.utf8)
            out.append(contentsOf: acl)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// Whether the stored text holds a file (which gets its URL) or a top-level `_` member (which is
    /// hidden). Written by our serializer, the text has no whitespace outside strings. A string value that
    /// merely contains the file marker is a false alarm that only costs the full rendering.
    static func needsRendering(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var depth = 0
        var previous: UInt8 = 0
        var i = 0
        while i < text.count {
            let byte = text[i]
            switch byte {
            case quote:
                // A member name of the object itself that starts with `_`.
                if depth == 1, previous == UInt8(ascii: "{") || previous == UInt8(ascii: ","),
                   i + 1 < text.count, text[i + 1] == UInt8(ascii: "_") { return true }
                if matches(text, at: i, fileMarker) { return true }
                // Skip to the closing quote: the next quote not escaped by a backslash. Strings are most of
                // an object's bytes, and inside them only these two bytes matter.
                i += 1
                while i < text.count {
                    let c = text[i]
                    if c == quote { break }
                    i += c == backslash ? 2 : 1
                }
                previous = quote
                i += 1
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            previous = byte
            i += 1
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
