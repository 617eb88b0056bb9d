import Core

/// A path into a JSON document: the member names from the root, `["address", "city"]` for the dotted
/// form `address.city`.
///
/// Engine-neutral: query compilers build paths from client field names, match values in decoded
/// documents with them, and hand them to a store, which turns them into its own path syntax.
public struct JSONPath: Hashable, Sendable {
    /// The member names, outermost first.
    public var segments: [String]

    public init(_ segments: [String]) { self.segments = segments }

    /// Splits a dotted path (`a.b.c`). Nil when the text is empty or a segment is empty (`a..b`, `a.`).
    ///
    /// With `escapes`, a backslash makes the next character literal, so `a\.b` is the one member `a.b`
    /// (CouchDB selectors spell dotted member names that way); a trailing lone backslash is refused.
    public init?(dotted: String, escapes: Bool = false) {
        if !escapes || !dotted.utf8.contains(UInt8(ascii: "\\")) {
            // The common case, on the bytes: `split(separator:)` walks grapheme clusters.
            let pieces = dotted.split(separator: ".", omittingEmptySubsequences: false)
            guard !pieces.contains(where: \.isEmpty) else { return nil }
            segments = pieces.map(String.init)
            return
        }
        var out: [String] = []
        var current = ""
        var escaped = false
        for ch in dotted.unicodeScalars {
            if escaped {
                current.unicodeScalars.append(ch)
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == "." {
                guard !current.isEmpty else { return nil }
                out.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(ch)
            }
        }
        guard !escaped, !current.isEmpty else { return nil }
        out.append(current)
        segments = out
    }

    /// The dotted form (segments are not escaped).
    public var dotted: String { segments.joined(separator: ".") }

    /// The top-level member the path starts at.
    public var first: String? { segments.first }

    /// The number of segments.
    public var count: Int { segments.count }

    /// This path with one more member at the end.
    public func appending(_ member: String) -> JSONPath { JSONPath(segments + [member]) }

    /// The value at the path; nil when a member is missing or a step is not an object (array elements are
    /// not addressed by index or searched).
    public func value(in root: JSON) -> JSON? {
        var v: JSON? = root
        for s in segments {
            guard let next = v?[s] else { return nil }
            v = next
        }
        return v
    }

    /// The value at the path in a document.
    public func value(in document: JSONObject) -> JSON? {
        guard let head = segments.first, var v = document[head] else { return nil }
        for s in segments.dropFirst() {
            guard let next = v[s] else { return nil }
            v = next
        }
        return v
    }

    /// Whether the value at the path, or one element of it when it is an array, satisfies `test`: the
    /// array rule of Parse `where` and MongoDB-style selectors (`{"tags": "a"}` matches `["a", "b"]`).
    public func anyValue<E: Error>(in document: JSONObject, satisfies test: (JSON) throws(E) -> Bool) throws(E) -> Bool {
        guard let v = value(in: document) else { return false }
        if try test(v) { return true }
        if case .array(let items) = v {
            for item in items {
                if try test(item) { return true }
            }
        }
        return false
    }

    /// `^[A-Za-z][A-Za-z0-9_]*$`: the name rule of Parse field names (and of many query languages'
    /// identifiers), checked on the bytes.
    public static func isIdentifier(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, isASCIILetter(first) else { return false }
        return bytes.allSatisfy { isASCIILetter($0) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    /// `A`-`Z` or `a`-`z`.
    public static func isASCIILetter(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }
}
