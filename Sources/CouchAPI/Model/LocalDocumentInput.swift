import Core

/// A `_local` document as a client sends it (spec §3.4, §5.8): no revision tree, no conflict check; the
/// stored revision is `0-{N+1}` where N is the number in the supplied `_rev`.
public struct LocalDocumentInput: Sendable {
    /// `_id`, validated (§4.3) and otherwise ignored: the URL names the document.
    public var id: String?
    /// N of the supplied `0-N`, 0 when `_rev` is absent.
    public var revNumber: Int64
    /// `_deleted: true` deletes the document exactly like `DELETE`.
    public var deleted: Bool
    /// The body without special members, keys in received order (kept members of §4.6 in place).
    public var body: JSONObject

    /// Splits `json` (an object, else "Document must be a JSON object"). `_attachments` → 400 "_local
    /// documents do not accept attachments."; `_rev` must be `0-{decimal}` (else "Invalid rev format");
    /// `_revisions` is validated and ignored; the other members follow §4.6 as for documents.
    public init(_ json: JSON, maxDocIDLength: Int = DocumentID.defaultMaxLength) throws(CouchError) {
        guard case .object(let object) = json else { throw .documentNotObject }
        id = nil
        revNumber = 0
        deleted = false
        body = JSONObject()
        for (key, value) in object {
            guard SpecialMembers.isSpecial(key) else {
                body[key] = value
                continue
            }
            switch key {
            case "_id": id = try DocumentID.validate(json: value, maxLength: maxDocIDLength)
            case "_rev":
                guard case .string(let text) = value else { throw .invalidRevFormat }
                revNumber = try LocalRevision.number(parsing: text)
            case "_revisions": _ = try RevPath(revisionsMember: value)
            case "_deleted":
                guard case .bool(let flag) = value else { throw .badSpecialMember(key) }
                deleted = flag
            case "_attachments": throw .localAttachments
            default:
                switch SpecialMembers.handling(of: key) {
                case .ignored: continue
                case .kept: body[key] = value
                case .refused: throw .badSpecialMember(key)
                }
            }
        }
    }

    /// The revision the write stores: `0-{N+1}` (CouchDB's `increment_local_doc_revs/1`).
    public var newRev: String { LocalRevision.text(LocalRevision.next(after: revNumber)) }
}

/// Revision numbers of `_local` documents (`0-N`).
public enum LocalRevision {
    /// N of a `0-N` revision (`?rev=` or `_rev`): `0-` then decimal digits (leading zeros tolerated),
    /// with N + 1 still representable. Anything else (`1-abc`, `0-x`, `0-`) → "Invalid rev format".
    public static func number(parsing text: String) throws(CouchError) -> Int64 {
        let bytes = text.utf8
        guard bytes.starts(with: "0-".utf8) else { throw .invalidRevFormat }
        let digits = bytes.dropFirst(2)
        guard !digits.isEmpty else { throw .invalidRevFormat }
        var value: Int64 = 0
        for c in digits {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { throw .invalidRevFormat }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(c - UInt8(ascii: "0")))
            // Int64.max itself is refused too: the next write could not number its revision.
            guard !o1, !o2, sum < Int64.max else { throw .invalidRevFormat }
            value = sum
        }
        return value
    }

    /// N + 1 (N is below Int64.max by `number(parsing:)`; saturates for values built in code).
    public static func next(after n: Int64) -> Int64 { n < Int64.max ? n + 1 : n }

    /// The text `0-N`.
    public static func text(_ n: Int64) -> String { "0-\(n)" }

    /// The revision `DELETE` answers with (§3.4).
    public static let deletedText = "0-0"
}
