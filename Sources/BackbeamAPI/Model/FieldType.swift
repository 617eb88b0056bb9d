/// The field types of §4.2, named by the suffix they carry on the wire (`name#t`, `price#n`).
public enum FieldType: String, Sendable, Equatable, CaseIterable {
    /// Single-line text.
    case text = "t"
    /// Multi-line text.
    case textarea = "ta"
    /// HTML text, stored verbatim.
    case richText = "rt"
    /// One option of a list (checked only with a schema).
    case select = "s"
    /// A number, answered as a JSON number.
    case number = "n"
    /// A date as milliseconds since the epoch.
    case date = "d"
    /// A boolean, answered as JSON `true`/`false`.
    case boolean = "b"
    /// A calendar day, `YYYY-MM-DD`.
    case day = "c"
    /// JSON text, answered embedded.
    case json = "j"
    /// Coordinates and/or an address.
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
