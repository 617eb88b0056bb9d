import Foundation

/// Building multipart/related request bodies and taking multipart answers apart, for the Couch tests.
enum MultipartTestBody {
    /// One part: header lines and content.
    struct Part {
        var headers: [String]
        var content: [UInt8]

        init(_ headers: [String], _ content: [UInt8]) {
            self.headers = headers
            self.content = content
        }

        init(_ headers: [String], _ text: String) {
            self.init(headers, Array(text.utf8))
        }

        /// The value of header `name` (case-insensitive), for parsed parts.
        func header(_ name: String) -> String? {
            for line in headers {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        var text: String { String(decoding: content, as: UTF8.self) }
    }

    /// `--B\r\n{headers}\r\n\r\n{content}` per part, then `\r\n--B--`.
    static func build(_ parts: [Part], boundary: String = "abc123") -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            out += Array("--\(boundary)\r\n".utf8)
            for header in part.headers { out += Array("\(header)\r\n".utf8) }
            out += Array("\r\n".utf8) + part.content + Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--".utf8)
        return out
    }

    /// `multipart/related; boundary="abc123"`.
    static let contentType = "multipart/related; boundary=\"abc123\""

    /// The quoted `boundary` of a multipart Content-Type.
    static func boundary(of contentType: String) -> String? {
        guard let range = contentType.range(of: "boundary=\"") else { return nil }
        let rest = contentType[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The parts of `body` delimited by `--boundary` (preamble and epilogue dropped). Nil when the body does not
    /// start with the first delimiter or lacks the close delimiter.
    static func parse(_ body: [UInt8], boundary: String) -> [Part]? {
        let delimiter = Array("--\(boundary)".utf8)
        guard body.starts(with: delimiter) else { return nil }
        var parts: [Part] = []
        var index = delimiter.count
        while true {
            if body[index...].starts(with: Array("--".utf8)) { return parts }
            guard body[index...].starts(with: Array("\r\n".utf8)) else { return nil }
            index += 2
            guard let headerEnd = find(Array("\r\n\r\n".utf8), in: body, from: index, allowEmptyAt: index) else { return nil }
            let headerText = String(decoding: body[index..<headerEnd.start], as: UTF8.self)
            let headers = headerText.isEmpty ? [] : headerText.components(separatedBy: "\r\n")
            let contentStart = headerEnd.end
            guard let next = find(Array("\r\n".utf8) + delimiter, in: body, from: contentStart, allowEmptyAt: nil) else { return nil }
            parts.append(Part(headers, Array(body[contentStart..<next.start])))
            index = next.end
        }
    }

    private static func find(_ needle: [UInt8], in body: [UInt8], from: Int, allowEmptyAt: Int?) -> (start: Int, end: Int)? {
        // A header block may be empty: then the blank line follows at once.
        if let at = allowEmptyAt, body[at...].starts(with: Array("\r\n".utf8)) { return (at, at + 2) }
        guard body.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= body.count {
            if body[i..<(i + needle.count)].elementsEqual(needle) { return (i, i + needle.count) }
            i += 1
        }
        return nil
    }
}
