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
        // The member names as byte arrays: appending a literal's UTF-8 view costs several times as much,
        // and this runs for every object of every answer.
        out.append(contentsOf: objectIdName)
        JSON.appendQuoted(utf8: objectId, to: &out)
        if data.count > 2 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: data[1..<(data.count - 1)]))
        }
        out.append(contentsOf: createdAtName)
        JSON.appendQuoted(utf8: createdAt, to: &out)
        out.append(contentsOf: updatedAtName)
        JSON.appendQuoted(utf8: updatedAt, to: &out)
        if let acl {
            out.append(contentsOf: aclName)
            out.append(contentsOf: acl)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// Whether the stored text holds a file (which gets its URL) or a top-level `_` member (which is
    /// hidden). Written by our serializer, the text has no whitespace outside strings. A string value that
    /// merely contains the file marker is a false alarm that only costs the full rendering.
    static func needsRendering(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return false }
        let count = text.count
        // Both things begin with `"_`, so text without any `_` byte (most objects: field names are
        // usually camel case) needs no closer look, and a word-wise search for one byte is far cheaper.
        guard containsUnderscore(base, count: count) else { return false }
        let quote = UInt8(ascii: "\"")
        var depth = 0
        var previous: UInt8 = 0
        var i = 0
        while i < count {
            let byte = base[i]
            switch byte {
            case quote:
                // Both cases begin with `"_`: a member name of the object itself that starts with `_`, and the
                // file marker `"__type":"File"`.
                if i + 1 < count, base[i + 1] == UInt8(ascii: "_") {
                    if depth == 1, previous == UInt8(ascii: "{") || previous == UInt8(ascii: ",") { return true }
                    if matches(text, at: i, fileMarker) { return true }
                }
                // Strings are most of an object's bytes, and inside them only the closing quote matters.
                i = closingQuote(base, from: i + 1, count: count) + 1
                previous = quote
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

    /// Whether some byte is `_`, eight bytes at a time.
    static func containsUnderscore(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        while count - i >= 8 {
            if WordBytes.equal(WordBytes.load(base, at: i), UInt8(ascii: "_")) != 0 { return true }
            i += 8
        }
        while i < count {
            if base[i] == UInt8(ascii: "_") { return true }
            i += 1
        }
        return false
    }

    /// The index of the quote that closes the string whose content starts at `start` (the next quote not
    /// escaped by a backslash), or `count` when the string does not end. Eight bytes at a time while a
    /// word holds neither a quote nor a backslash: a byte-wise scan was the largest cost of writing a
    /// query's objects.
    static func closingQuote(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var i = start
        while i < count {
            if count - i >= 8 {
                let word = WordBytes.load(base, at: i)
                let flags = WordBytes.equal(word, UInt8(ascii: "\"")) | WordBytes.equal(word, UInt8(ascii: "\\"))
                if flags == 0 {
                    i += 8
                    continue
                }
                // The lowest flag is the first quote or backslash: jump straight to it.
                i += WordBytes.firstFlagged(flags) ?? 0
            }
            let c = base[i]
            if c == UInt8(ascii: "\"") { return i }
            i += c == UInt8(ascii: "\\") ? 2 : 1
        }
        return count
    }

    private static let objectIdName: [UInt8] = Array(#"{"objectId":"#.utf8)
    private static let createdAtName: [UInt8] = Array(#","createdAt":"#.utf8)
    private static let updatedAtName: [UInt8] = Array(#","updatedAt":"#.utf8)
    private static let aclName: [UInt8] = Array(#","ACL":"#.utf8)

    /// A file value's type member as the serializer writes it.
    private static let fileMarker = Array(#""__type":"File""#.utf8)

    private static func matches(_ text: UnsafeBufferPointer<UInt8>, at start: Int, _ needle: [UInt8]) -> Bool {
        guard text.count - start >= needle.count else { return false }
        for (offset, byte) in needle.enumerated() where text[start + offset] != byte { return false }
        return true
    }
}
