/// Echoes client input inside messages: single-quoted and cut to 100 characters so that a hostile
/// value cannot blow up a response; JSON escaping happens when the message is rendered.
enum Quote {
    /// `'<text>'`, truncated to 100 characters.
    static func echo(_ text: String) -> String {
        "'" + String(text.prefix(100)) + "'"
    }
}
