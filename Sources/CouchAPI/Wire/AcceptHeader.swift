/// Content negotiation with CouchDB's rule (spec §2.5, `mochiweb_request:accepts_content_type/1`).
enum AcceptHeader {
    /// Whether a request with `Accept: header` accepts `type` (`multipart/mixed`): yes when the header is
    /// absent, or lists `*/*`, `{major}/*` or `type` with a non-zero quality, unless it lists `type` or
    /// `{major}/*` with `q=0`.
    static func accepts(_ header: String?, _ type: String) -> Bool {
        guard let header else { return true }
        let wanted = type.lowercased()
        let major = String(wanted.prefix { $0 != "/" }) + "/*"
        var accepted = false
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";")
            guard let range = parts.first?.trimmingSpacesAndTabs().lowercased() else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpacesAndTabs()
                if pair.hasPrefix("q="), let q = Double(pair.dropFirst(2)) { quality = q }
            }
            if quality <= 0, range == wanted || range == major { return false }
            if quality > 0, range == wanted || range == major || range == "*/*" { accepted = true }
        }
        return accepted
    }
}

extension Substring {
    /// The text without surrounding spaces and tabs.
    func trimmingSpacesAndTabs() -> String {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
