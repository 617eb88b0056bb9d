import Files

/// The MIME types of file objects (§5.3.3, §5.3.4).
enum FileMIME {
    /// Backbeam's own guesses by extension, for parts sent without a content type (§5.3.4). They differ
    /// from the shared table in places (`audio/mpeg3`, `audio/aiff`), so the SDKs see what Backbeam gave.
    static let byExtension: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "mov": "video/quicktime", "mp3": "audio/mpeg3", "wav": "audio/wav", "aif": "audio/aiff", "aiff": "audio/aiff",
        "mpeg": "video/mpeg", "mp4": "video/mp4", "pdf": "application/pdf",
    ]

    /// The type recorded for an upload: the part's `Content-Type` essence when it is a valid `type/subtype`,
    /// else the guess from `filename`'s extension, else `application/octet-stream`.
    static func recorded(partType: String?, filename: String) -> String {
        if let partType, let essence = MIMEType.essence(of: partType), isValid(essence) { return essence }
        return MIMEType.fileExtension(of: filename).flatMap { byExtension[$0] } ?? MIMEType.octetStream
    }

    /// The `Content-Type` a download is served with: the stored type when it is `type/subtype` tokens, else
    /// `application/octet-stream` (§5.3.3).
    static func servable(_ stored: String) -> String {
        isValid(stored) ? stored : MIMEType.octetStream
    }

    /// Types a browser would run or render as a page on the daemon's origin (§5.3.3): served as attachments
    /// in a sandbox.
    static func isActive(_ type: String) -> Bool {
        // The types of resized variants and of most uploads, none of them active: answered before the essence
        // is parsed and searched (about 8,000 instructions of every image download otherwise).
        if type == "image/jpeg" || type == "image/png" || type == "image/gif" { return false }
        let t = MIMEType.essence(of: type) ?? type
        return t == "text/html" || t == "application/xhtml+xml" || t == "image/svg+xml" || t == "text/xml"
            || t == "application/xml" || t.contains("javascript")
    }

    /// `type/subtype`, both RFC 9110 tokens.
    static func isValid(_ essence: String) -> Bool {
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { BackbeamResponses.isToken(String($0)) }
    }
}
