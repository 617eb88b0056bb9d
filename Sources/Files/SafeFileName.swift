/// Client-supplied file names made safe to store, list and send back (in JSON, in a `Content-Disposition`
/// header, to a browser that saves the file). Names are never used as paths here (blobs are addressed
/// by content hash); this keeps a name from doing harm where others use it.
public enum SafeFileName {
    /// The longest name kept, in UTF-8 bytes (most file systems allow 255).
    public static let defaultMaxBytes = 255

    /// A safe version of `name`, or nil when nothing usable is left:
    /// - only the part after the last `/` or `\` (browsers on Windows sent whole paths);
    /// - control characters (C0, DEL, C1), invisible direction and byte-order marks removed, so a name
    ///   cannot break a header or display as something else ("txt.exe" shown as "exe.txt");
    /// - `"`, `*`, `:`, `<`, `>`, `?`, `|` replaced by `_` (they end quoted strings or are refused by
    ///   Windows);
    /// - leading and trailing dots and spaces removed, so no `.`/`..`, hidden files or "name.exe." tricks;
    /// - Windows device names (`CON`, `NUL`, `COM1`, ...) prefixed with `_`;
    /// - cut to `maxBytes` UTF-8 bytes on a character boundary, keeping a short extension.
    public static func sanitize(_ name: String, maxBytes: Int = defaultMaxBytes) -> String? {
        let base = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last ?? ""
        var cleaned = ""
        for scalar in base.unicodeScalars where !isInvisible(scalar) {
            cleaned.unicodeScalars.append(replaced.contains(scalar) ? "_" : scalar)
        }
        let trimmed = cleaned.trimmingDotsAndSpaces()
        guard !trimmed.isEmpty else { return nil }
        var result = isDeviceName(trimmed) ? "_" + trimmed : trimmed
        if result.utf8.count > maxBytes { result = shortened(result, to: maxBytes) }
        return result.isEmpty ? nil : result
    }

    /// Whether `name` is already safe: `sanitize` would keep it as it is.
    public static func isSafe(_ name: String, maxBytes: Int = defaultMaxBytes) -> Bool {
        sanitize(name, maxBytes: maxBytes) == name
    }

    private static let replaced: Set<Unicode.Scalar> = ["\"", "*", ":", "<", ">", "?", "|"]

    /// Controls, and format characters that reorder or hide text (bidi marks and overrides, zero-width
    /// characters, the byte-order mark).
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static let deviceNames: Set<String> = {
        var names: Set<String> = ["CON", "PRN", "AUX", "NUL"]
        for n in 1...9 { names.insert("COM\(n)"); names.insert("LPT\(n)") }
        return names
    }()

    /// `CON`, `con.txt`, `LPT1.tar.gz`: Windows opens the device whatever the extension.
    private static func isDeviceName(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        return deviceNames.contains(stem.uppercased())
    }

    /// `name` cut to at most `maxBytes` UTF-8 bytes, keeping an extension of up to 16 bytes when the stem
    /// can give way to it.
    private static func shortened(_ name: String, to maxBytes: Int) -> String {
        var stem = Substring(name), ext = Substring("")
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let candidate = name[dot...]
            if candidate.utf8.count <= 16, candidate.utf8.count < maxBytes {
                stem = name[..<dot]
                ext = candidate
            }
        }
        let room = maxBytes - ext.utf8.count
        var kept = ""
        var used = 0
        for character in stem {
            let size = character.utf8.count
            if used + size > room { break }
            kept.append(character)
            used += size
        }
        return (kept + ext).trimmingDotsAndSpaces()
    }
}

extension String {
    /// Without leading and trailing `.` and spaces.
    fileprivate func trimmingDotsAndSpaces() -> String {
        let unwanted: (Character) -> Bool = { $0 == "." || $0 == " " }
        guard let first = firstIndex(where: { !unwanted($0) }), let last = lastIndex(where: { !unwanted($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
