import Core

/// Reads the JSON body of an interactive document `PUT` (§3.3.3) without building a JSON tree: the body is
/// kept as the compact text that is stored (`JSONCompactor` writes exactly what parsing and serializing
/// would), and its revision term (§4.5) is written from that text (`ExternalTermWriter.compactObject`).
///
/// It takes on only the usual shape: an object whose special members, if any, are a valid `_id`, a `_rev`
/// that parses, a boolean `_deleted` and the read-only members clients echo back. Anything else (bad JSON, a
/// repeated key, a limit, a bad id or revision, `_attachments`, `_revisions`, members kept in the body such as
/// `_access`, refused ones) makes it give up (nil): the caller then reads the body the general way, which
/// answers with CouchDB's exact error or handles the rarer shape. So nothing it decides on its own reaches the
/// client, and a body it accepts is one the general way accepts with the same result.
enum SingleDocumentReader {
    /// A body as read.
    struct Document {
        /// `_rev` as sent, parsed; nil without one.
        let rev: RevID?
        let deleted: Bool
        /// The body without special members, compact: the bytes `JSON.object(body).serializedBytes()` gives.
        let body: [UInt8]
        /// `body`'s revision term: what `ExternalTermWriter.object` writes for the parsed body.
        let term: [UInt8]
    }

    /// `bytes` read as a document, or nil when this reader does not take it (see the type's comment).
    static func read(_ bytes: [UInt8], maxDocIDLength: Int) -> Document? {
        bytes.withUnsafeBufferPointer { buffer in
            // The general way's parser options and request limits, so that this accepts what it accepts.
            var options = CouchJSON.parseOptions(maxBytes: .max)
            JSONRequestLimits.apply(to: &options)
            var json = JSONCompactor(buffer: buffer, options: options)
            guard json.peek() == UInt8(ascii: "{") else { return nil }
            var element: [UInt8] = []
            element.reserveCapacity(buffer.count)
            do {
                try json.value(into: &element, depth: 0, recordingMembers: true)
            } catch {
                return nil
            }
            guard json.atEnd() else { return nil }
            return split(element, members: json.members, maxDocIDLength: maxDocIDLength)
        }
    }

    /// Special member names as `JSONCompactor` writes keys (quoted), compared without making strings.
    private enum Keys {
        static let id = Array(#""_id""#.utf8)
        static let rev = Array(#""_rev""#.utf8)
        static let deleted = Array(#""_deleted""#.utf8)
    }

    /// Splits the compact object `element` into its special members and its body, as `DocumentInput` does.
    private static func split(_ element: [UInt8], members: [(key: Range<Int>, value: Range<Int>)],
                              maxDocIDLength: Int) -> Document? {
        element.withUnsafeBufferPointer { bytes -> Document? in
            var rev: RevID?
            var deleted = false
            var special = false
            for (keyRange, valueRange) in members {
                // Keys are in serialized form: `"_…"` is a special member whatever escapes it was sent with.
                guard keyRange.count > 1, bytes[keyRange.lowerBound &+ 1] == UInt8(ascii: "_") else { continue }
                special = true
                let key = UnsafeBufferPointer(rebasing: bytes[keyRange])
                let value = UnsafeBufferPointer(rebasing: bytes[valueRange])
                if key.elementsEqual(Keys.id) {
                    guard let text = plainString(value),
                          (try? DocumentID.validate(text, maxLength: maxDocIDLength)) != nil else { return nil }
                } else if key.elementsEqual(Keys.rev) {
                    guard let text = plainString(value), let parsed = try? RevID(parsing: text) else { return nil }
                    rev = parsed
                } else if key.elementsEqual(Keys.deleted) {
                    guard value.elementsEqual("true".utf8) || value.elementsEqual("false".utf8) else { return nil }
                    deleted = value.count == 4
                } else {
                    // The read-only members clients echo back are dropped; `_attachments`, `_revisions`, members
                    // kept in the body (`_access`, `_replication_*`) and refused ones are the general way's.
                    let name = String(decoding: UnsafeBufferPointer(rebasing: key.dropFirst().dropLast()), as: UTF8.self)
                    guard SpecialMembers.handling(of: name) == .ignored else { return nil }
                }
            }
            // Most bodies have no special member: the element is the body.
            guard special else {
                var term = ExternalTermWriter(fragmentCapacity: element.count &+ 64)
                guard term.compactObject(bytes, members: members) else { return nil }
                return Document(rev: rev, deleted: deleted, body: element, term: term.bytes)
            }
            let kept = members.filter { $0.key.count < 2 || bytes[$0.key.lowerBound &+ 1] != UInt8(ascii: "_") }
            var body: [UInt8] = [UInt8(ascii: "{")]
            body.reserveCapacity(element.count)
            for (keyRange, valueRange) in kept {
                if body.count > 1 { body.append(UInt8(ascii: ",")) }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keyRange.lowerBound..<valueRange.upperBound]))
            }
            body.append(UInt8(ascii: "}"))
            var term = ExternalTermWriter(fragmentCapacity: element.count &+ 64)
            guard term.compactObject(bytes, members: kept) else { return nil }
            return Document(rev: rev, deleted: deleted, body: body, term: term.bytes)
        }
    }

    /// A serialized string without escapes, as text.
    private static func plainString(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\""),
              !value.contains(UInt8(ascii: "\\")) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: value.dropFirst().dropLast()), as: UTF8.self)
    }
}
