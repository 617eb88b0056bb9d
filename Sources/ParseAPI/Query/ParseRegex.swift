import QueryKit

/// The shared engine's compiled pattern under the name the Parse code uses, so that files which only
/// check a pattern (configuration, password policy) need not import QueryKit.
typealias RegexProgram = QueryKit.RegexProgram

/// Client regular expressions (`$regex`, spec §7.5; password policies, §9.10) compiled by the shared
/// engine, with Parse's answer for a refused pattern.
enum ParseRegex {
    /// `RegexProgram.compile`, refusals answered with 102 and no engine details.
    static func compile(_ pattern: String, options: String, allowLookaround: Bool = false) throws(ParseError) -> RegexProgram {
        do {
            return try RegexProgram.compile(pattern, options: options, allowLookaround: allowLookaround)
        } catch {
            switch error {
            case .unsupported: throw ParseError(102, "Unsupported regular expression feature.")
            case .syntax: throw ParseError(102, "Invalid regular expression.")
            }
        }
    }
}
