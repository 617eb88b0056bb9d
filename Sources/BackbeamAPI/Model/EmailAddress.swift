/// Login emails of users (§5.4.1).
public enum EmailAddress {
    /// Longest accepted address, in characters.
    public static let maxLength = 254

    /// The address trimmed of surrounding spaces, or nil unless it has at most 254 characters, exactly one
    /// `@` with text on both sides, and no whitespace or control characters.
    public static func normalized(_ text: String) -> String? {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty, trimmed.count <= maxLength else { return nil }
        var ats = 0
        for scalar in trimmed.unicodeScalars {
            if scalar == "@" { ats += 1 }
            if scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                return nil
            }
        }
        guard ats == 1, trimmed.first != "@", trimmed.last != "@" else { return nil }
        return trimmed
    }

    /// The form addresses are compared in: lower-cased, so uniqueness and `email:` collection entries are
    /// case-insensitive.
    public static func folded(_ text: String) -> String {
        text.trimmingSpaces().lowercased()
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingSpaces() -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
