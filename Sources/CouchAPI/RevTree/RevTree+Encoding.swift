/// Why stored revision-tree bytes could not be read back.
public enum RevTreeDecodingError: Error, Sendable, Equatable {
    /// The bytes are not a revision tree of a known format version; `detail` says what is wrong.
    case corrupt(String)
}

/// The compact binary form the store keeps per document.
///
/// Layout (format 1), all integers unsigned LEB128 varints unless noted:
/// - byte 1 (the format version), then the node count;
/// - per node, in ascending revision order: the generation as the difference from the previous node's
///   (nodes ascend, so it is ≥ 0 and usually 0 or 1); one flags byte (bit 0: digest key, bit 1: deleted,
///   bit 2: body stored); the key — 16 raw bytes for a digest, else its length and ASCII bytes; the
///   distance back to the parent's position (0 for a root); the sequence number.
///
/// A typical revision takes 20 bytes. Decoding checks every invariant the tree relies on, so damaged bytes
/// become an error, never a malformed tree.
extension RevTree {
    static let formatVersion: UInt8 = 1

    private enum Flag {
        static let digest: UInt8 = 1
        static let deleted: UInt8 = 2
        static let hasBody: UInt8 = 4
    }

    /// The tree as bytes for storage.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [Self.formatVersion]
        out.reserveCapacity(2 + nodes.count * 22)
        Self.appendVarint(UInt64(nodes.count), to: &out)
        var previousGeneration = 0
        for (i, node) in nodes.enumerated() {
            Self.appendNode(node.rev, deleted: node.deleted, hasBody: node.hasBody,
                            parentDistance: node.parentIndex >= 0 ? i - node.parentIndex : 0, seq: node.seq,
                            previousGeneration: &previousGeneration, to: &out)
        }
        return out
    }

    /// The bytes of the tree a replicated `path` makes in an empty tree (§5.4), stemmed to `limit`: what
    /// `mergeReplicated` into `RevTree()`, then `stem(limit:)` and `encoded()` give, without building the
    /// nodes. A new document is what a replicator pushes most, and building its tree cost the writer more
    /// than the bytes themselves.
    static func encodedNewPath(_ path: RevPath, deleted: Bool, seq: Int64, limit: Int) -> [UInt8] {
        // Stemming keeps the newest `limit` revisions of the single branch (a limit below 1 counts as 1).
        let kept = min(path.count, max(1, limit))
        // At most 10 bytes per varint (count; per node generation, parent distance, sequence, text
        // length), one flags byte and the key's bytes.
        var capacity = 11
        for i in 0..<kept {
            if case .text(let text) = path.keys[i] { capacity += 41 + text.count } else { capacity += 47 }
        }
        // Written through a buffer of that capacity: appending byte by byte to an array was most of the
        // cost (about 600 instructions per revision).
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, written in
            var writer = UnsafeByteWriter(buffer: buffer)
            writer.byte(Self.formatVersion)
            writer.varint(UInt64(kept))
            var previousGeneration = 0
            // Oldest first; each node's parent is the one before it, the oldest kept is a root.
            for i in stride(from: kept - 1, through: 0, by: -1) {
                let generation = path.start - i
                writer.varint(UInt64(generation - previousGeneration))
                previousGeneration = generation
                var flags: UInt8 = 0
                if i == 0 { flags = deleted ? Flag.hasBody | Flag.deleted : Flag.hasBody }
                switch path.keys[i] {
                case .digest(let high, let low):
                    writer.byte(flags | Flag.digest)
                    writer.bigEndian(high)
                    writer.bigEndian(low)
                case .text(let text):
                    writer.byte(flags)
                    writer.varint(UInt64(text.count))
                    for b in text { writer.byte(b) }
                }
                writer.varint(i == kept - 1 ? 0 : 1)
                writer.varint(UInt64(max(0, seq)))
            }
            written = writer.position
        }
    }

    /// One node of the layout above; `parentDistance` 0 for a root.
    private static func appendNode(_ rev: RevID, deleted: Bool, hasBody: Bool, parentDistance: Int, seq: Int64,
                                   previousGeneration: inout Int, to out: inout [UInt8]) {
        appendVarint(UInt64(rev.generation - previousGeneration), to: &out)
        previousGeneration = rev.generation
        var flags: UInt8 = deleted ? Flag.deleted : 0
        if hasBody { flags |= Flag.hasBody }
        switch rev.key {
        case .digest:
            out.append(flags | Flag.digest)
            rev.key.appendBytes(to: &out)
        case .text(let text):
            out.append(flags)
            appendVarint(UInt64(text.count), to: &out)
            out.append(contentsOf: text)
        }
        appendVarint(UInt64(parentDistance), to: &out)
        appendVarint(UInt64(max(0, seq)), to: &out)
    }

    /// Reads a tree written by `encoded()`.
    public init(encoded bytes: [UInt8]) throws(RevTreeDecodingError) {
        var reader = ByteReader(bytes: bytes)
        guard try reader.byte() == Self.formatVersion else { throw .corrupt("unknown format version") }
        let count = try reader.varint()
        // Every node takes at least 5 bytes; a count beyond that is damage, not a reason to allocate.
        guard count <= UInt64(bytes.count / 5) else { throw .corrupt("node count exceeds the data") }
        var nodes: [RevNode] = []
        nodes.reserveCapacity(Int(count))
        var generation = 0
        for i in 0..<Int(count) {
            let delta = try reader.varint()
            guard delta <= UInt64(RevID.maxGeneration - generation) else { throw .corrupt("generation out of range") }
            generation += Int(delta)
            guard generation >= 1 else { throw .corrupt("generation below 1") }
            let flags = try reader.byte()
            guard flags & ~(Flag.digest | Flag.deleted | Flag.hasBody) == 0 else { throw .corrupt("unknown flags") }
            let key: RevKey
            if flags & Flag.digest != 0 {
                guard let digest = RevKey(digest: try reader.take(16)) else { throw .corrupt("short digest") }
                key = digest
            } else {
                let length = try reader.varint()
                guard length >= 1, length <= UInt64(RevKey.maxTextLength) else { throw .corrupt("bad key length") }
                let text = try reader.take(Int(length))
                // A 32-byte text key would parse as a digest; it cannot have come from a parsed id.
                guard case .key(let parsed) = RevKey.parseSuffix(text), parsed == .text(text) else {
                    throw .corrupt("bad key text")
                }
                key = parsed
            }
            let rev = RevID(boundedGeneration: generation, key: key)
            if let previous = nodes.last?.rev, !(previous < rev) { throw .corrupt("nodes out of order") }
            let back = try reader.varint()
            var parentIndex = -1
            if back > 0 {
                guard back <= UInt64(i) else { throw .corrupt("parent out of range") }
                parentIndex = i - Int(back)
                guard nodes[parentIndex].rev.generation == generation - 1 else { throw .corrupt("parent generation") }
            }
            let seq = try reader.varint()
            guard seq <= UInt64(Int64.max) else { throw .corrupt("sequence out of range") }
            nodes.append(RevNode(rev: rev, deleted: flags & Flag.deleted != 0, hasBody: flags & Flag.hasBody != 0,
                                 seq: Int64(seq), parentIndex: parentIndex))
        }
        guard reader.isAtEnd else { throw .corrupt("trailing bytes") }
        self.init(validatedNodes: nodes)
    }

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(truncatingIfNeeded: value))
    }
}

/// Writing into a buffer whose capacity the caller computed for everything written (`encodedNewPath`);
/// a write past the end stops writing instead of touching memory beyond it.
private struct UnsafeByteWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var position = 0

    mutating func byte(_ value: UInt8) {
        guard position < buffer.count else { return }
        buffer[position] = value
        position += 1
    }

    mutating func bigEndian(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { byte(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Unsigned LEB128, as `appendVarint`.
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            byte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        byte(UInt8(truncatingIfNeeded: value))
    }
}

/// Bounds-checked reading of stored bytes.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() throws(RevTreeDecodingError) -> UInt8 {
        guard position < bytes.count else { throw .corrupt("truncated") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: Int) throws(RevTreeDecodingError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - position else { throw .corrupt("truncated") }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    /// Unsigned LEB128, at most 10 bytes, refusing values past 64 bits.
    mutating func varint() throws(RevTreeDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 63 || (shift == 63 && b <= 1) else { throw .corrupt("varint overflow") }
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
