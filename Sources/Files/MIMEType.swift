import Foundation

/// Media types by file extension and back. One fixed table for every API, so that a file gets the same
/// `Content-Type` whichever API serves it (Parse's download spec, §13.4, names this table).
public enum MIMEType {
    /// The type of content nothing more is known about.
    public static let octetStream = "application/octet-stream"

    /// Types by lower-case extension.
    static let byExtension: [String: String] = [
        "txt": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "js": "application/javascript", "mjs": "application/javascript", "json": "application/json",
        "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "bmp": "image/bmp", "ico": "image/x-icon", "svg": "image/svg+xml", "heic": "image/heic", "tif": "image/tiff",
        "tiff": "image/tiff", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "m4a": "audio/mp4",
        "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "md": "text/markdown",
        "xhtml": "application/xhtml+xml",
    ]

    /// Extensions for types, used to name uploads that have none (`photo` + image/png -> photo.png).
    static let extensionByType: [String: String] = [
        "text/plain": "txt", "text/html": "html", "text/css": "css", "text/csv": "csv",
        "application/javascript": "js", "application/json": "json", "application/xml": "xml",
        "application/pdf": "pdf", "application/zip": "zip", "image/png": "png", "image/jpeg": "jpg",
        "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg", "audio/mpeg": "mp3", "audio/wav": "wav",
        "video/mp4": "mp4", "video/quicktime": "mov",
    ]

    /// The type for an extension (without the dot, any case); nil when the table has none.
    public static func forExtension(_ fileExtension: String) -> String? {
        byExtension[fileExtension.lowercased()]
    }

    /// The type for a file name by its extension; `application/octet-stream` for none or an unknown one.
    public static func forFileName(_ name: String) -> String {
        fileExtension(of: name).flatMap { byExtension[$0] } ?? octetStream
    }

    /// The lower-cased text after the last `.` of `name` ("" when it ends with a dot); nil without a dot.
    public static func fileExtension(of name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The usual extension for a type ("image/png" -> "png"); nil when the table has none. `type` is
    /// compared as given: pass the lower-cased essence (see `essence(of:)`).
    public static func preferredExtension(for type: String) -> String? {
        extensionByType[type]
    }

    /// The lower-cased `type/subtype` of a `Content-Type` value, without parameters
    /// ("Image/PNG; q=1" -> "image/png"); nil when nothing is left.
    public static func essence(of contentType: String) -> String? {
        // Every download answers with its stored type: ASCII (nearly always) is trimmed and lower-cased on
        // bytes; anything else takes Foundation's Unicode rules below.
        let utf8 = contentType.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            let head = utf8.prefix { $0 != UInt8(ascii: ";") }
            let isBlank = { (b: UInt8) in b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
            let trimmed = head.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
            guard !trimmed.isEmpty else { return nil }
            return String(decoding: trimmed.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 },
                          as: UTF8.self)
        }
        guard let head = contentType.split(separator: ";").first else { return nil }
        let essence = head.trimmingCharacters(in: .whitespaces).lowercased()
        return essence.isEmpty ? nil : essence
    }
}
