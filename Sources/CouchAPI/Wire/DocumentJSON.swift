import Core

/// Documents as clients read them (spec §3.3.1): `_id`, `_rev`, the body members in stored order,
/// `_deleted` for tombstones, the requested metadata (`_revisions`, `_revs_info`, `_local_seq`,
/// `_conflicts`, `_deleted_conflicts`), then `_attachments`.
///
/// Stored bodies are compact JSON text, so a document is assembled by copying bytes: no parse, no
/// re-serialisation of the body.
enum DocumentJSON {
    /// Appends the document to `out`. `body` is a stored body (an object's JSON text); `metadata` members are
    /// written after `_deleted` in their order; `attachments` is a stubs object's JSON text.
    static func append(to out: inout [UInt8], id: String, rev: UnsafeBufferPointer<UInt8>, body: UnsafeBufferPointer<UInt8>,
                       deleted: Bool, metadata: [(String, JSON)] = [], attachments: UnsafeBufferPointer<UInt8>? = nil) {
        out.append(contentsOf: idPrefix)
        var id = id
        id.withUTF8 { JSON.appendQuoted(utf8: $0, to: &out) }
        out.append(contentsOf: revPrefix)
        out.append(contentsOf: rev)
        out.append(UInt8(ascii: "\""))
        // `{}` contributes nothing; otherwise everything between the braces follows a comma.
        if body.count > 2 {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: body[1..<(body.count - 1)]))
        }
        if deleted { out.append(contentsOf: deletedMember) }
        for (key, value) in metadata {
            out.append(UInt8(ascii: ","))
            JSON.string(key).appendSerialized(to: &out)
            out.append(UInt8(ascii: ":"))
            value.appendSerialized(to: &out)
        }
        if let attachments {
            out.append(contentsOf: attachmentsPrefix)
            out.append(contentsOf: attachments)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The document as a response body (with the trailing `\n`).
    static func render(id: String, rev: String, body: [UInt8], deleted: Bool, metadata: [(String, JSON)] = [],
                       attachments: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + id.utf8.count + 64 + (attachments?.count ?? 0))
        appendParts(to: &out, id: id, rev: rev, body: body, deleted: deleted, metadata: metadata, attachments: attachments)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// `append` from arrays and strings.
    static func appendParts(to out: inout [UInt8], id: String, rev: String, body: [UInt8], deleted: Bool,
                            metadata: [(String, JSON)] = [], attachments: [UInt8]? = nil) {
        var rev = rev
        rev.withUTF8 { revBytes in
            body.withUnsafeBufferPointer { bodyBytes in
                if let attachments {
                    attachments.withUnsafeBufferPointer { stubs in
                        append(to: &out, id: id, rev: revBytes, body: bodyBytes, deleted: deleted, metadata: metadata,
                               attachments: stubs)
                    }
                } else {
                    append(to: &out, id: id, rev: revBytes, body: bodyBytes, deleted: deleted, metadata: metadata)
                }
            }
        }
    }

    // Static strings, not array constants: an array constant is one heap object every worker retains and
    // releases, which moves its reference count between the cores on every request.
    private static let idPrefix: StaticString = "{\"_id\":"
    private static let revPrefix: StaticString = ",\"_rev\":\""
    private static let deletedMember: StaticString = ",\"_deleted\":true"
    private static let attachmentsPrefix: StaticString = ",\"_attachments\":"
}

extension Array where Element == UInt8 {
    /// Appends the bytes of a static string.
    mutating func append(contentsOf text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }
}

extension JSON {
    /// Appends this value's compact JSON text to `out`.
    func appendSerialized(to out: inout [UInt8]) {
        out.append(contentsOf: serializedBytes())
    }
}
