import Core

/// Reads a replicated `_bulk_docs` body (§3.7 with `"new_edits":false`, what a replicator pushes) without
/// building a JSON tree: each element's special members are picked out and its body is kept as the compact
/// text that is stored (`JSONCompactor` writes exactly what parsing and serializing would).
///
/// It takes on only the usual shape: a top-level object with `docs` and `"new_edits":false`, elements that
/// are objects with a valid `_id` (not `_local/`), `_rev` as a string, a well-formed `_revisions`, a boolean
/// `_deleted`, an object `_attachments` and the read-only members clients echo back. Anything else, and any
/// fault at all (bad JSON, a repeated key, a limit, a bad id or revision), makes it give up (nil): the
/// caller then reads the body the general way, which refuses it with CouchDB's exact error or handles the
/// rarer shape (`_local` documents, members kept in the body, a missing `_id`). So nothing it decides on
/// its own reaches the client, and a body it accepts is one the general way accepts with the same result.
enum ReplicatedBulkReader {
    /// One element as read.
    struct Element {
        let id: String
        /// `_rev` as sent, nil without one.
        let rev: String?
        let revisions: RevPath?
        let deleted: Bool
        /// `_attachments`, parsed (the only member that becomes a tree: its data is decoded anyway).
        let attachments: JSONObject?
        /// The body without special members, compact: the bytes `JSON.object(body).serializedBytes()` gives.
        let body: [UInt8]
    }

    /// Whether `bytes` is worth trying: a top-level `new_edits` is usually written before `docs` or after
    /// it, so near one end of the body. Only a hint (the reading itself checks the member); an interactive
    /// body, which this reader never takes, does not pay for a scan.
    static func mayApply(_ bytes: [UInt8]) -> Bool {
        let name = Array(#""new_edits""#.utf8)
        let window = 256
        return bytes.prefix(window).firstRange(of: name) != nil || bytes.suffix(window).firstRange(of: name) != nil
    }

    /// The elements of `bytes`, or nil when this reader does not take the body (see the type's comment).
    static func read(_ bytes: [UInt8], maxElements: Int, maxDocIDLength: Int) -> [Element]? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer, maxDocIDLength: maxDocIDLength)
            return try? reader.read(maxElements: maxElements)
        }
    }

    /// Special member names as `JSONCompactor` writes keys (quoted), compared without making strings.
    private enum Keys {
        static let id = Array(#""_id""#.utf8)
        static let rev = Array(#""_rev""#.utf8)
        static let revisions = Array(#""_revisions""#.utf8)
        static let deleted = Array(#""_deleted""#.utf8)
        static let attachments = Array(#""_attachments""#.utf8)
    }

    /// Why the reader gave up; never shown to anyone.
    private struct GiveUp: Error {}

    private struct Reader {
        var json: JSONCompactor
        let maxDocIDLength: Int
        /// The element being read, compact (reused).
        var element: [UInt8] = []
        /// Values the reader does not keep (reused).
        var ignored: [UInt8] = []

        init(buffer: UnsafeBufferPointer<UInt8>, maxDocIDLength: Int) {
            // The general way's parser options and request limits, so that this accepts what it accepts.
            var options = CouchJSON.parseOptions(maxBytes: .max)
            JSONRequestLimits.apply(to: &options)
            json = JSONCompactor(buffer: buffer, options: options)
            self.maxDocIDLength = maxDocIDLength
        }

        mutating func read(maxElements: Int) throws -> [Element] {
            guard json.peek() == UInt8(ascii: "{") else { throw GiveUp() }
            try json.countValue()
            _ = json.consume(UInt8(ascii: "{"))
            var keys: [[UInt8]] = []
            var elements: [Element]?
            var newEdits: Bool?
            var key: [UInt8] = []
            if !json.consume(UInt8(ascii: "}")) {
                repeat {
                    key.removeAll(keepingCapacity: true)
                    try json.string(into: &key)
                    // A top level of many members is not a replicator's: the general way checks those for
                    // repeats with its index.
                    guard keys.count < 8, !keys.contains(key), json.consume(UInt8(ascii: ":")) else { throw GiveUp() }
                    keys.append(key)
                    switch key {
                    case Array(#""docs""#.utf8): elements = try docs(maxElements: maxElements)
                    case Array(#""new_edits""#.utf8):
                        ignored.removeAll(keepingCapacity: true)
                        try json.value(into: &ignored, depth: 1)
                        newEdits = ignored == Array("true".utf8) ? true : ignored == Array("false".utf8) ? false : nil
                        guard newEdits != nil else { throw GiveUp() }
                    default:
                        ignored.removeAll(keepingCapacity: true)
                        try json.value(into: &ignored, depth: 1)
                    }
                } while json.consume(UInt8(ascii: ","))
                guard json.consume(UInt8(ascii: "}")) else { throw GiveUp() }
            }
            guard json.atEnd(), newEdits == false, let elements else { throw GiveUp() }
            return elements
        }

        /// The `docs` array.
        private mutating func docs(maxElements: Int) throws -> [Element] {
            guard json.peek() == UInt8(ascii: "[") else { throw GiveUp() }
            try json.countValue()
            _ = json.consume(UInt8(ascii: "["))
            var elements: [Element] = []
            if json.consume(UInt8(ascii: "]")) { return elements }
            repeat {
                guard elements.count < maxElements, json.peek() == UInt8(ascii: "{") else { throw GiveUp() }
                element.removeAll(keepingCapacity: true)
                // The top-level object and `docs` are open around it.
                try json.value(into: &element, depth: 2, recordingMembers: true)
                elements.append(try split())
            } while json.consume(UInt8(ascii: ","))
            guard json.consume(UInt8(ascii: "]")) else { throw GiveUp() }
            return elements
        }

        /// Splits the element just read into its special members and its body, as `DocumentInput` does.
        private func split() throws -> Element {
            var id: String?
            var rev: String?
            var revisions: RevPath?
            var deleted = false
            var attachments: JSONObject?
            var body: [UInt8] = [UInt8(ascii: "{")]
            body.reserveCapacity(element.count)
            try element.withUnsafeBufferPointer { bytes in
                for (keyRange, valueRange) in json.members {
                    let key = UnsafeBufferPointer(rebasing: bytes[keyRange])
                    let value = UnsafeBufferPointer(rebasing: bytes[valueRange])
                    // Keys are in serialized form: `"_…"` is a special member whatever escapes it was sent with.
                    guard key.count > 1, key[1] == UInt8(ascii: "_") else {
                        if body.count > 1 { body.append(UInt8(ascii: ",")) }
                        body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keyRange.lowerBound..<valueRange.upperBound]))
                        continue
                    }
                    if key.elementsEqual(Keys.id) {
                        let text = try Self.plainString(value)
                        try DocumentID.validate(text, maxLength: maxDocIDLength)
                        guard !DocumentID.isLocal(text) else { throw GiveUp() }
                        id = text
                    } else if key.elementsEqual(Keys.rev) {
                        rev = try Self.plainString(value)
                    } else if key.elementsEqual(Keys.revisions) {
                        revisions = try Self.revisions(value)
                    } else if key.elementsEqual(Keys.deleted) {
                        guard value.elementsEqual("true".utf8) || value.elementsEqual("false".utf8) else { throw GiveUp() }
                        deleted = value.count == 4
                    } else if key.elementsEqual(Keys.attachments) {
                        guard value.first == UInt8(ascii: "{"), case .object(let members) = try CouchJSON.parse(Array(value))
                        else { throw GiveUp() }
                        attachments = members
                    } else {
                        // The read-only members clients echo back are dropped; members kept in the body
                        // (`_access`, `_replication_*`) and refused ones are the general way's.
                        let name = String(decoding: UnsafeBufferPointer(rebasing: key.dropFirst().dropLast()), as: UTF8.self)
                        guard SpecialMembers.handling(of: name) == .ignored else { throw GiveUp() }
                    }
                }
            }
            body.append(UInt8(ascii: "}"))
            // Without `_revisions`, `_rev` is the revision written and must parse; with it, `_rev` is not read.
            guard let id, revisions != nil || rev != nil else { throw GiveUp() }
            if revisions == nil, let rev { _ = try RevID(parsing: rev) }
            return Element(id: id, rev: rev, revisions: revisions, deleted: deleted, attachments: attachments, body: body)
        }

        /// A serialized string without escapes, as text.
        private static func plainString(_ value: UnsafeBufferPointer<UInt8>) throws -> String {
            guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\""),
                  !value.contains(UInt8(ascii: "\\")) else { throw GiveUp() }
            return String(decoding: UnsafeBufferPointer(rebasing: value.dropFirst().dropLast()), as: UTF8.self)
        }

        /// `_revisions` as the compactor wrote it (valid, compact, no repeated keys): `start` a plain integer
        /// and `ids` an array of strings without escapes, checked as `RevPath(revisionsMember:)` checks them;
        /// other members are skipped, as there.
        private static func revisions(_ value: UnsafeBufferPointer<UInt8>) throws -> RevPath {
            var cursor = Compact(bytes: value)
            var start: Int?
            var keys: [RevKey]?
            try cursor.expect(UInt8(ascii: "{"))
            if !cursor.take(UInt8(ascii: "}")) {
                repeat {
                    let key = try cursor.string()
                    try cursor.expect(UInt8(ascii: ":"))
                    if key.elementsEqual("start".utf8) {
                        start = try cursor.generation()
                    } else if key.elementsEqual("ids".utf8) {
                        keys = try cursor.revKeys()
                    } else {
                        try cursor.skipValue()
                    }
                } while cursor.take(UInt8(ascii: ","))
                try cursor.expect(UInt8(ascii: "}"))
            }
            guard cursor.atEnd, let start, let keys else { throw GiveUp() }
            return try RevPath(start: start, keys: keys)
        }
    }

    /// A cursor over compact JSON the compactor already checked, so only its shape is followed.
    private struct Compact {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func expect(_ byte: UInt8) throws {
            guard take(byte) else { throw GiveUp() }
        }

        /// The contents of a string without escapes (one with escapes is the general way's).
        mutating func string() throws -> UnsafeBufferPointer<UInt8> {
            try expect(UInt8(ascii: "\""))
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] != UInt8(ascii: "\\") else { throw GiveUp() }
                index += 1
            }
            let contents = UnsafeBufferPointer(rebasing: bytes[start..<index])
            try expect(UInt8(ascii: "\""))
            return contents
        }

        /// A generation: 1 to 10 digits, at most 2^31 − 1 (§4.4); anything else (a sign, a fraction, an
        /// exponent, a larger value) is the general way's to refuse.
        mutating func generation() throws -> Int {
            var value = 0
            let start = index
            while index < bytes.count, index - start < 10, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > start, value <= Int(Int32.max), index == bytes.count || bytes[index] == UInt8(ascii: ",")
                    || bytes[index] == UInt8(ascii: "}") else { throw GiveUp() }
            return value
        }

        /// An array of revision id suffixes.
        mutating func revKeys() throws -> [RevKey] {
            try expect(UInt8(ascii: "["))
            var keys: [RevKey] = []
            keys.reserveCapacity(4)
            if take(UInt8(ascii: "]")) { return keys }
            repeat {
                guard case .key(let key) = RevKey.parseSuffix(try string()) else { throw GiveUp() }
                keys.append(key)
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
            return keys
        }

        /// Moves past one value.
        mutating func skipValue() throws {
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return }
                default:
                    break
                }
                index += 1
            }
            guard depth == 0 else { throw GiveUp() }
        }
    }
}
