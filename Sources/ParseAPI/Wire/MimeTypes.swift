/// The fixed extension <-> content type table used for uploads and downloads (spec §13).
enum MimeTypes {
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

    /// Extensions for content types, used to name uploads that have none (`photo` + image/png -> photo.png).
    static let extensionByType: [String: String] = [
        "text/plain": "txt", "text/html": "html", "text/css": "css", "text/csv": "csv",
        "application/javascript": "js", "application/json": "json", "application/xml": "xml",
        "application/pdf": "pdf", "application/zip": "zip", "image/png": "png", "image/jpeg": "jpg",
        "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg", "audio/mpeg": "mp3", "audio/wav": "wav",
        "video/mp4": "mp4", "video/quicktime": "mov",
    ]

    static func type(forName name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Types that can carry active content: served as attachments.
    static func isActive(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        let ext = name[name.index(after: dot)...].lowercased()
        return ParseConfig.defaultBlockedExtensions.contains(ext) || ext == "js" || ext == "mjs"
    }
}
