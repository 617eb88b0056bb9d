import Foundation

/// What the house rules need to know of one Swift file: the modules it imports and the text of its string
/// literals (comments are skipped, so prose may mention SQL freely).
struct SwiftSourceScan {
    /// Imported module names, in order of appearance (`import struct Foo.Bar` gives `Foo`).
    private(set) var imports: [(module: String, line: Int)] = []
    /// The contents of every string literal, with the line it starts on. Interpolated parts are left out.
    private(set) var literals: [(text: String, line: Int)] = []

    init(_ source: String) {
        scanImports(source)
        scanLiterals(Array(source.unicodeScalars))
    }

    private static let importPattern = try! NSRegularExpression(  // a constant pattern, checked by the tests
        pattern: #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#)

    private mutating func scanImports(_ source: String) {
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            let range = NSRange(text.startIndex..., in: text)
            guard let match = Self.importPattern.firstMatch(in: text, range: range),
                  let name = Range(match.range(at: 1), in: text) else { continue }
            imports.append((String(text[name]), index + 1))
        }
    }

    /// A small lexer: enough of Swift's grammar to tell code, comments and string literals apart
    /// (line and nested block comments, `"…"`, `"""…"""`, raw strings `#"…"#`, interpolation `\(…)`).
    private mutating func scanLiterals(_ s: [Unicode.Scalar]) {
        var i = 0
        var line = 1
        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        while i < s.count {
            let c = s[i]
            if c == "\n" { line += 1; i += 1; continue }
            if c == "/", at(i + 1) == "/" {
                while i < s.count, s[i] != "\n" { i += 1 }
                continue
            }
            if c == "/", at(i + 1) == "*" {
                var depth = 0
                repeat {
                    if s[i] == "/", at(i + 1) == "*" { depth += 1; i += 2; continue }
                    if s[i] == "*", at(i + 1) == "/" { depth -= 1; i += 2; continue }
                    if s[i] == "\n" { line += 1 }
                    i += 1
                } while i < s.count && depth > 0
                continue
            }
            if c == "#" || c == "\"" {
                var hashes = 0
                var j = i
                while at(j) == "#" { hashes += 1; j += 1 }
                guard at(j) == "\"" else { i += 1; continue }
                let multiline = at(j + 1) == "\"" && at(j + 2) == "\""
                j += multiline ? 3 : 1
                let start = line
                var text = String.UnicodeScalarView()
                while j < s.count {
                    let d = s[j]
                    if d == "\n" { line += 1 }
                    if d == "\\" && hashesFollow(s, j + 1, hashes) {
                        let k = j + 1 + hashes
                        if at(k) == "(" {  // interpolation: skip to the matching parenthesis
                            var depth = 1
                            j = k + 1
                            while j < s.count && depth > 0 {
                                if s[j] == "(" { depth += 1 } else if s[j] == ")" { depth -= 1 } else if s[j] == "\n" { line += 1 }
                                j += 1
                            }
                            text.append(" ")
                            continue
                        }
                        if let e = at(k) { text.append(e) }
                        j = k + 1
                        continue
                    }
                    if d == "\"" {
                        let closes = multiline ? (at(j + 1) == "\"" && at(j + 2) == "\"") : true
                        if closes && hashesFollow(s, j + (multiline ? 3 : 1), hashes) {
                            j += (multiline ? 3 : 1) + hashes
                            break
                        }
                    }
                    if !multiline && d == "\n" { break }  // unterminated: give up on this literal
                    text.append(d)
                    j += 1
                }
                literals.append((String(text), start))
                i = j
                continue
            }
            i += 1
        }
    }

    private func hashesFollow(_ s: [Unicode.Scalar], _ from: Int, _ count: Int) -> Bool {
        guard count > 0 else { return true }
        guard from + count <= s.count else { return false }
        return s[from..<(from + count)].allSatisfy { $0 == "#" }
    }
}

/// Recognises SQL text inside a string literal.
enum SQLText {
    private static let patterns: [NSRegularExpression] = [
        #"\bSELECT\s"#, #"\bINSERT\s+(OR\s+[A-Z]+\s+)?INTO\b"#, #"\bUPDATE\s+\S+\s+SET\b"#, #"\bDELETE\s+FROM\b"#,
        #"\bCREATE\s+(UNIQUE\s+)?(TABLE|INDEX|VIRTUAL\s+TABLE|TRIGGER|VIEW)\b"#, #"\bDROP\s+(TABLE|INDEX|TRIGGER|VIEW)\b"#,
        #"\bPRAGMA\s"#, #"\bjson_(extract|each|tree|type|array_length|object|group_array)\s*\("#, #"\sMATCH\s"#,
        #"\bORDER\s+BY\b"#, #"\bGROUP\s+BY\b"#, #"\bCOLLATE\s"#, #"\bSAVEPOINT\s"#, #"\bBEGIN\s+(IMMEDIATE|DEFERRED|EXCLUSIVE)\b"#,
    ].map { try! NSRegularExpression(pattern: $0) }  // constant patterns, exercised by the tests

    /// True when `text` looks like (a fragment of) SQL.
    static func appears(in text: String) -> Bool {
        let range = NSRange(text.startIndex..., in: text)
        return patterns.contains { $0.firstMatch(in: text, range: range) != nil }
    }
}
