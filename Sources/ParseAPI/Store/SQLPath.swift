/// Builds JSON path expressions over the stored object text from already validated names.
///
/// Every segment is double-quoted in the path (`$."nutritionalInfo"."Calories"`), so a name can never
/// change the path's structure; callers only pass names that matched the field-name grammar. Schema
/// indexes are created with exactly these expressions, so the planner can match them.
enum SQLPath {
    static func path(_ segments: [String]) -> String {
        var p = "$"
        for s in segments {
            // Names are validated before they get here; doubling quotes keeps this safe even if not.
            p += ".\"" + doubling(s, "\"") + "\""
        }
        return "'" + doubling(p, "'") + "'"
    }

    /// `text` with every `quote` doubled. A byte scan finds none in valid names, so the common case copies
    /// nothing (Foundation's `replacingOccurrences` bridged every name through NSString on each query).
    static func doubling(_ text: String, _ quote: Unicode.Scalar) -> String {
        if quote.isASCII && !text.utf8.contains(UInt8(quote.value)) { return text }
        var out = ""
        for ch in text.unicodeScalars {
            out.unicodeScalars.append(ch)
            if ch == quote { out.unicodeScalars.append(ch) }
        }
        return out
    }

    static func extract(column: String = "o.data", path segments: [String]) -> String {
        "json_extract(\(column), \(path(segments)))"
    }

    static func type(column: String = "o.data", path segments: [String]) -> String {
        "json_type(\(column), \(path(segments)))"
    }

    /// A class name as an SQL string literal. Queries name their class this way rather than as a bound
    /// `?`: parse_objects has partial indexes `WHERE class = '…'` (declared indexes, users, sessions),
    /// and a statement whose class is a parameter can use them only by being planned again on every
    /// execution (SQLite expires it each time that parameter is bound), which made an indexed query cost
    /// two to three times as much. Names are checked before they get here; quotes are doubled anyway.
    static func classLiteral(_ name: String) -> String {
        // Through `doubling`: Foundation's replacingOccurrences was about 3 % of a GET by id's CPU.
        "'" + doubling(name, "'") + "'"
    }
}
