extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace, RFC 9110 §5.6.3).
    ///
    /// Works on the UTF-8 view: Foundation's `trimmingCharacters(in: .whitespaces)` bridges through
    /// `NSString` and UTF-16, which cost about a tenth of a small request's CPU where headers were trimmed
    /// on every request. Header values are bytes, and SP and HTAB are the only whitespace HTTP allows.
    public func trimmingOWS() -> String {
        var utf8 = Substring(self).utf8[...]
        while let b = utf8.first, ByteClass.isOWS(b) { utf8 = utf8.dropFirst() }
        while let b = utf8.last, ByteClass.isOWS(b) { utf8 = utf8.dropLast() }
        return String(Substring(utf8))
    }
}
