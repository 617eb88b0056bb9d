extension StringProtocol {
    /// The pieces between occurrences of one ASCII byte (`.` of a key path, `,` of a list), split on the
    /// UTF-8 bytes: `split(separator:)` with a Character walks grapheme clusters, which showed in the
    /// profile of every query. Empty pieces are left out, as `split` does by default.
    ///
    /// The byte can never be part of a longer UTF-8 sequence, so the pieces are valid text; unlike the
    /// Character-wise split, a separator followed by a combining mark still separates.
    public func split(asciiByte separator: UInt8) -> [Substring] {
        precondition(separator < 0x80, "separator must be ASCII")
        let whole = Substring(self)
        let bytes = whole.utf8
        var out: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == separator {
                if index != start { out.append(whole[start..<index]) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if start != bytes.endIndex { out.append(whole[start..<bytes.endIndex]) }
        return out
    }
}
