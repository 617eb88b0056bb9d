/// A host pattern such as "api-{env}-{project}.backbeam.io": literal text compared case-insensitively, and
/// `{name}` captures of one or more characters that never span a dot.
struct HostPattern: Sendable {
    enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case capture(String)
    }

    let pieces: [Piece]

    init(_ pattern: String) {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var rest = Substring(pattern.lowercased())
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            literal += Array(rest[..<open].utf8)
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = []
            pieces.append(.capture(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        literal += Array(rest.utf8)
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// The captures when `host` (lower-cased, without port) matches, else nil.
    func match(_ host: String) -> [String: String]? {
        let bytes = Array(host.utf8)
        var captures: [(String, Range<Int>)] = []
        guard HostPattern.match(pieces[...], bytes, 0, &captures) else { return nil }
        var result: [String: String] = [:]
        for (name, range) in captures { result[name] = String(decoding: bytes[range], as: UTF8.self) }
        return result
    }

    /// Backtracking match; captures are tried shortest first.
    private static func match(_ pieces: ArraySlice<Piece>, _ bytes: [UInt8], _ at: Int,
                              _ captures: inout [(String, Range<Int>)]) -> Bool {
        guard let piece = pieces.first else { return at == bytes.count }
        switch piece {
        case .literal(let literal):
            guard bytes.count - at >= literal.count, bytes[at..<(at + literal.count)].elementsEqual(literal) else {
                return false
            }
            return match(pieces.dropFirst(), bytes, at + literal.count, &captures)
        case .capture(let name):
            var end = at + 1
            while end <= bytes.count, bytes[end - 1] != UInt8(ascii: ".") {
                captures.append((name, at..<end))
                if match(pieces.dropFirst(), bytes, end, &captures) { return true }
                captures.removeLast()
                end += 1
            }
            return false
        }
    }

    /// The host name of a `Host` header value: lower-cased, port and IPv6 brackets' port removed.
    static func hostName(_ header: String) -> String {
        let lower = header.lowercased()
        if lower.hasPrefix("[") {
            if let close = lower.firstIndex(of: "]") { return String(lower[...close]) }
            return lower
        }
        if let colon = lower.lastIndex(of: ":") { return String(lower[..<colon]) }
        return lower
    }
}
