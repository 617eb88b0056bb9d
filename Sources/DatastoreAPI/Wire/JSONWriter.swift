import Core

/// Writes JSON text byte by byte. Strings escape only `"`, `\` and control characters (non-ASCII stays raw
/// UTF-8), numbers keep their received lexeme, and already-serialised JSON can be spliced in verbatim.
/// The same rules, with sorted keys, give the canonical form the list token hashes (§8.5).
struct JSONWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// Sort object keys bytewise (canonical form) instead of keeping their order.
    var sortKeys = false

    init(sortKeys: Bool = false) { self.sortKeys = sortKeys }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }
    mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    mutating func int(_ value: Int64) { raw(String(value)) }
    mutating func int(_ value: Int) { raw(String(value)) }

    /// A JSON string with minimal escaping.
    mutating func string(_ s: String) {
        bytes.append(0x22)
        for c in s.utf8 {
            switch c {
            case 0x22: bytes.append(0x5C); bytes.append(0x22)
            case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x00..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigit(c >> 4))
                bytes.append(Self.hexDigit(c & 0x0F))
            default: bytes.append(c)
            }
        }
        bytes.append(0x22)
    }

    /// `[e1,e2,...]`, each element written by `element`.
    mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        raw(0x5B)
        var first = true
        for item in items {
            if !first { raw(0x2C) }
            first = false
            element(&self, item)
        }
        raw(0x5D)
    }

    /// Any JSON value; numbers exactly as received.
    mutating func value(_ json: JSON) {
        switch json {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .number(let n): raw(n.text)
        case .string(let s): string(s)
        case .array(let items):
            array(items) { w, item in w.value(item) }
        case .object(let object): self.object(object)
        }
    }

    /// An object, keys in order or sorted bytewise when `sortKeys` is set.
    mutating func object(_ object: JSONObject) {
        var pairs = Array(object)
        if sortKeys { pairs.sort { Self.bytewiseLess($0.key, $1.key) } }
        raw(0x7B)
        for (i, pair) in pairs.enumerated() {
            if i > 0 { raw(0x2C) }
            string(pair.key)
            raw(0x3A)
            value(pair.value)
        }
        raw(0x7D)
    }

    /// Writes `"key":` with the separating comma when `first` is false.
    mutating func key(_ name: String, first: Bool) {
        if !first { raw(0x2C) }
        string(name)
        raw(0x3A)
    }

    /// Serialises one value compactly.
    static func serialize(_ json: JSON, sortKeys: Bool = false) -> String {
        var w = JSONWriter(sortKeys: sortKeys)
        w.value(json)
        return w.text
    }

    /// Bytewise (UTF-8) ordering, which is also SQLite's BINARY collation.
    static func bytewiseLess(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }
}
