#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes objects read straight from a query's rows into a `ByteWriter`: the same bytes as
/// `ObjectBytes.appendMember(id:entity:...)`, without the per-row allocations of that path (a list of
/// joined field names per row, arrays grown piece by piece) and with the stored references taken apart by
/// `memchr` instead of byte by byte.
enum ObjectRowWriter {
    /// Appends `"<id>":{...}` for an object read from a row. Bit i of `joinedMask` set: the to-one field
    /// `joinedNames[i]` is written as the bare id (its target is in the page).
    static func appendMember(id: UnsafeBufferPointer<UInt8>, entity: UnsafeBufferPointer<UInt8>, createdAt: Int64,
                             updatedAt: Int64, vals: UnsafeBufferPointer<UInt8>?, refs: UnsafeBufferPointer<UInt8>?,
                             login: UnsafeBufferPointer<UInt8>?, joinedNames: [[UInt8]], joinedMask: UInt64,
                             to out: ByteWriter) {
        out.appendQuoted(id)
        out.append(":{\"type\":")
        out.appendQuoted(entity)
        out.append(",\"created_at\":")
        out.appendInt(createdAt)
        out.append(",\"updated_at\":")
        out.appendInt(updatedAt)
        if let vals, !vals.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(vals)
        }
        if let refs, !refs.isEmpty {
            appendReferences(refs, joinedNames: joinedNames, joinedMask: joinedMask, to: out)
        }
        if let login, !login.isEmpty {
            out.append(UInt8(ascii: ","))
            out.append(login)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The stored `refs` (each member preceded by a comma), the joined ones as bare ids: what
    /// `ReferenceMembers.render` writes. A text not of the stored shape is handed to that renderer whole.
    static func appendReferences(_ refs: UnsafeBufferPointer<UInt8>, joinedNames: [[UInt8]], joinedMask: UInt64,
                                 to out: ByteWriter) {
        guard joinedMask != 0 else {
            out.append(UInt8(ascii: ","))
            out.append(refs)
            return
        }
        let mark = out.count
        if !appendMembers(refs, joinedNames: joinedNames, joinedMask: joinedMask, to: out) {
            out.truncate(to: mark)
            var names: [String] = []
            for (i, name) in joinedNames.enumerated() where i < 64 && joinedMask & (1 << UInt64(i)) != 0 {
                names.append(String(decoding: name, as: UTF8.self))
            }
            var rendered: [UInt8] = []
            var first = false
            ReferenceMembers.render(refs, joined: names, into: &rendered, first: &first)
            out.append(rendered)
        }
    }

    /// Each member `"<name>#r":{"id":"<id>","type":"<entity>"}` (members joined by commas; names, ids and
    /// entities hold no quote, `StoredMembers.references`); false when the text is not of that shape.
    private static func appendMembers(_ refs: UnsafeBufferPointer<UInt8>, joinedNames: [[UInt8]], joinedMask: UInt64,
                                      to out: ByteWriter) -> Bool {
        guard let base = refs.baseAddress else { return true }
        let end = refs.count
        var start = 0
        while start < end {
            // The name's closing quote, then `":{"id":"` (8 bytes), the id, `","type":"` (10), the entity, `"}`.
            guard base[start] == UInt8(ascii: "\""),
                  let nameQuote = quote(base, from: start + 1, end: end), nameQuote - start >= 3,
                  matches(base, at: nameQuote, end: end, idLead),
                  let idQuote = quote(base, from: nameQuote + 9, end: end),
                  matches(base, at: idQuote, end: end, typeLead),
                  let entityQuote = quote(base, from: idQuote + 10, end: end),
                  entityQuote + 1 < end, base[entityQuote + 1] == UInt8(ascii: "}") else { return false }
            let memberEnd = entityQuote + 2
            // The name without its `#r`.
            let name = UnsafeBufferPointer(start: base + start + 1, count: nameQuote - 2 - (start + 1))
            out.append(UInt8(ascii: ","))
            if isJoined(name, joinedNames, joinedMask) {
                out.append(UnsafeBufferPointer(start: base + start, count: nameQuote - start))
                out.append("\":")
                out.append(UnsafeBufferPointer(start: base + nameQuote + 8, count: idQuote - (nameQuote + 8) + 1))
            } else {
                out.append(UnsafeBufferPointer(start: base + start, count: memberEnd - start))
            }
            if memberEnd == end { return true }
            guard base[memberEnd] == UInt8(ascii: ",") else { return false }
            start = memberEnd + 1
        }
        return true
    }

    private static let idLead: StaticString = "\":{\"id\":\""
    private static let typeLead: StaticString = "\",\"type\":\""

    /// The position of the next `"` at or after `from`, before `end`.
    @inline(__always)
    private static func quote(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        guard from < end, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), end - from) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Whether the bytes at `position` are `literal`.
    @inline(__always)
    private static func matches(_ base: UnsafePointer<UInt8>, at position: Int, end: Int, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        return end - position >= n && memcmp(base + position, literal.utf8Start, n) == 0
    }

    private static func isJoined(_ name: UnsafeBufferPointer<UInt8>, _ names: [[UInt8]], _ mask: UInt64) -> Bool {
        for (i, candidate) in names.enumerated() where i < 64 && mask & (1 << UInt64(i)) != 0 {
            guard candidate.count == name.count else { continue }
            guard let nameBase = name.baseAddress, !name.isEmpty else { return true }
            if candidate.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp($0, nameBase, name.count) == 0 } ?? false }) {
                return true
            }
        }
        return false
    }
}
