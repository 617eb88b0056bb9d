/// Why a pattern was refused. Callers answer both in their own wire format without engine details.
public enum RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern is not a well-formed regular expression.
    case syntax
    /// The pattern uses a feature the engine leaves out to keep matching linear (back-references,
    /// lookbehind, possessive quantifiers, ...) or exceeds a size bound.
    case unsupported

    public var description: String {
        switch self {
        case .syntax: return "invalid regular expression"
        case .unsupported: return "unsupported regular expression feature"
        }
    }
}
