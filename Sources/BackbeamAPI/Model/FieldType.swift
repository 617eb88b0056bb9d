/// The field types of §4.2, named by the suffix they carry on the wire (`name#t`, `price#n`).
public enum FieldType: String, Sendable, Equatable, CaseIterable {
    case text = "t"
    case textarea = "ta"
    case richText = "rt"
    case select = "s"
    case number = "n"
    case date = "d"
    case boolean = "b"
    case day = "c"
    case json = "j"
    case location = "l"
    /// A to-one or to-many relationship (the wire suffix does not tell them apart; the catalogue does).
    case reference = "r"

    /// The suffix as written after `#`.
    public var suffix: String { rawValue }

    /// True for the text-like types that `like` searches and that compare by code point (§6.2).
    public var isText: Bool { self == .text || self == .textarea || self == .richText }

    /// Splits `name#suffix` into the field id and type (§4.3 rule 3: `set-price#n=3`). A name without
    /// `#` has no type; a `#` with an unknown suffix is nil as a whole (the caller answers
    /// `InvalidParameters`).
    public static func split(_ name: String) -> (field: String, type: FieldType?)? {
        guard let hash = name.utf8.firstIndex(of: UInt8(ascii: "#")) else { return (name, nil) }
        let field = String(decoding: name.utf8[name.utf8.startIndex..<hash], as: UTF8.self)
        let suffix = String(decoding: name.utf8[name.utf8.index(after: hash)...], as: UTF8.self)
        guard let type = FieldType(rawValue: suffix) else { return nil }
        return (field, type)
    }
}
