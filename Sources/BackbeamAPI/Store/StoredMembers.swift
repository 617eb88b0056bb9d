import Core
import Storage

/// Builds the response members stored with each object (`bb_objects.vals` and `.refs`), so that reads copy
/// them instead of building JSON (§4.4).
enum StoredMembers {
    /// `"name#t":"Bar Pepe","price#n":3` for every value field of `data` (keyed `f<field id>`), in the order
    /// the fields were first set. The values are already in response form (`FieldTyping.storedValue`).
    static func values(_ data: JSONObject, fields: [String: FieldInfo]) -> [UInt8] {
        var byID: [Int64: FieldInfo] = [:]
        for info in fields.values { byID[info.id] = info }
        var out: [UInt8] = []
        out.reserveCapacity(64 * data.count)
        for (key, value) in data {
            guard let id = Int64(key.dropFirst()), let info = byID[id], let type = info.type, type != .reference else {
                continue
            }
            if !out.isEmpty { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: JSON.string(info.name + "#" + type.suffix).serializedBytes())
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: value.serializedBytes())
        }
        return out
    }

    /// `"author#r":{"id":"..","type":"user"}` for every to-one reference of `owner`, in catalogue order.
    /// Field, object and entity ids are restricted to `[A-Za-z0-9_-]`, so they need no escaping and
    /// `ReferenceMembers` can take the text apart again without a JSON parser.
    static func references(_ db: Database, owner: Int64) throws -> [UInt8] {
        var out: [UInt8] = []
        try db.forEachRow("""
            SELECT f.name, t.id, t.entity FROM bb_refs r JOIN bb_fields f ON f.id = r.field
            JOIN bb_objects t ON t.seq = r.target WHERE r.owner = ? ORDER BY f.id
            """, [.integer(owner)]) { row in
            guard let name = row.text(0), let id = row.text(1), let entity = row.text(2) else { return true }
            if !out.isEmpty { out.append(UInt8(ascii: ",")) }
            ReferenceMembers.appendUnjoined(name: name, id: id, entity: entity, to: &out)
            return true
        }
        return out
    }
}

/// The to-one members of `bb_objects.refs` and their two renderings (§4.5): unjoined
/// `"author#r":{"id":"mDWuly5NaQxO","type":"user"}` and joined `"author#r":"mDWuly5NaQxO"`.
enum ReferenceMembers {
    static func appendUnjoined(name: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>,
                               entity: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: name)
        out.append(contentsOf: "#r\":{\"id\":\"".utf8)
        out.append(contentsOf: id)
        out.append(contentsOf: "\",\"type\":\"".utf8)
        out.append(contentsOf: entity)
        out.append(contentsOf: "\"}".utf8)
    }

    /// One member of a stored `refs` text, as ranges of its bytes.
    struct Member {
        var name: Range<Int>
        var id: Range<Int>
        /// The whole member text.
        var text: Range<Int>
    }

    /// Calls `body` with each member of a stored `refs` text. Each has the fixed shape
    /// `"<name>#r":{"id":"<id>","type":"<e>"}` whose parts contain no quote, so the quotes delimit them.
    static func forEachMember(_ refs: UnsafeBufferPointer<UInt8>, _ body: (Member) -> Void) {
        var quotes = (0, 0, 0, 0, 0, 0)   // positions of quotes 0, 1, 4, 5 of the member (name and id)
        var seen = 0
        var start = 0
        var i = 0
        while i < refs.count {
            let b = refs[i]
            if b == UInt8(ascii: "\"") {
                switch seen {
                case 0: quotes.0 = i
                case 1: quotes.1 = i
                case 4: quotes.2 = i
                case 5: quotes.3 = i
                default: break
                }
                seen += 1
            } else if b == UInt8(ascii: "}") {
                // Ten quotes: name (0, 1), "id" (2, 3), id (4, 5), "type" (6, 7), entity (8, 9).
                if seen >= 10, quotes.1 >= quotes.0 + 3 {
                    body(Member(name: (quotes.0 + 1)..<(quotes.1 - 2), id: (quotes.2 + 1)..<quotes.3, text: start..<(i + 1)))
                }
                seen = 0
                start = i + 2   // skip "},"
                i += 1
            }
            i += 1
        }
    }

    /// The members of a stored `refs` text (names and ids as text; for tests and diagnostics).
    static func members(_ refs: [UInt8]) -> [(name: String, id: String)] {
        var out: [(name: String, id: String)] = []
        refs.withUnsafeBufferPointer { buffer in
            forEachMember(buffer) { member in
                out.append((String(decoding: UnsafeBufferPointer(rebasing: buffer[member.name]), as: UTF8.self),
                            String(decoding: UnsafeBufferPointer(rebasing: buffer[member.id]), as: UTF8.self)))
            }
        }
        return out
    }

    /// The stored `refs` with the members of `joined` fields written as the bare id, the others unchanged.
    static func render(_ refs: [UInt8], joined: [String], into out: inout [UInt8], first: inout Bool) {
        refs.withUnsafeBufferPointer { buffer in render(buffer, joined: joined, into: &out, first: &first) }
    }

    /// `render` over bytes in place (a row's column as SQLite holds it).
    static func render(_ buffer: UnsafeBufferPointer<UInt8>, joined: [String], into out: inout [UInt8], first: inout Bool) {
        guard !buffer.isEmpty else { return }
        guard !joined.isEmpty else {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: buffer)
            return
        }
        forEachMember(buffer) { member in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            let name = UnsafeBufferPointer(rebasing: buffer[member.name])
            if joined.contains(where: { $0.utf8.elementsEqual(name) }) {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: name)
                out.append(contentsOf: "#r\":\"".utf8)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[member.id]))
                out.append(UInt8(ascii: "\""))
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[member.text]))
            }
        }
    }
}
