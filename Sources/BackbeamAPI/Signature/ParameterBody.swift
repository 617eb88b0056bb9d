/// A form field of a `multipart/form-data` body, as the multipart parser split it.
public struct MultipartField: Sendable, Equatable {
    /// The `name` of the part's Content-Disposition.
    public var name: String
    /// The part's body bytes.
    public var value: [UInt8]
    /// The `filename` of the Content-Disposition, when the part is a file.
    public var filename: String?

    /// A field; give `filename` for file parts.
    public init(name: String, value: [UInt8], filename: String? = nil) {
        self.name = name
        self.value = value
        self.filename = filename
    }
}

/// The parameter-bearing content of a request body (§2.1).
public enum ParameterBody: Sendable, Equatable {
    /// No body, or a body of a content type that carries no parameters (those are ignored, §2.1).
    case none
    /// An `application/x-www-form-urlencoded` body.
    case urlencoded([UInt8])
    /// The fields of a `multipart/form-data` body. File parts may be included; they are skipped.
    case multipart([MultipartField])

    /// How a body with this `Content-Type` carries parameters.
    public enum Kind: Sendable, Equatable {
        /// Parameters are not read from the body.
        case none
        /// `name=value&...`, percent-encoded.
        case urlencoded
        /// `multipart/form-data` fields.
        case multipart
    }

    /// The kind for a `Content-Type` header value: the media type is compared case-insensitively and any
    /// parameters (`; charset=UTF-8`, `; boundary=...`) are ignored, since the SDKs send both with and
    /// without a charset. Anything else, or no header, carries no parameters.
    public static func kind(forContentType contentType: String?) -> Kind {
        guard let contentType else { return .none }
        let media = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        let trimmed = media.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
        let lowered = String(decoding: trimmed.reversed(), as: UTF8.self).lowercased()
        switch lowered {
        case "application/x-www-form-urlencoded": return .urlencoded
        case "multipart/form-data": return .multipart
        default: return .none
        }
    }
}
