/// Where a parameter came from.
public enum ParameterSource: String, Sendable, Equatable {
    /// The request target's query string.
    case query
    /// An `application/x-www-form-urlencoded` or `multipart/form-data` body.
    case body
}

/// Why a request's parameters could not be decoded. Every case answers 400 `InvalidParameters` (§2.2),
/// except that a bad JSONP callback is also answered as plain JSON rather than wrapped (§2.3.3).
public enum ParameterError: Error, Sendable, Equatable {
    /// A `%` not followed by two hexadecimal digits, at this byte offset of the source.
    case malformedPercentEscape(source: ParameterSource, offset: Int)
    /// A decoded name or value (or a multipart field) that is not valid UTF-8; the offset is where its
    /// pair starts in the source (for multipart, the field's position among the fields).
    case invalidUTF8(source: ParameterSource, offset: Int)
    /// More pairs than `ParameterLimits.maxParameters`.
    case tooManyParameters(limit: Int)
    /// A decoded name longer than `ParameterLimits.maxNameBytes`.
    case nameTooLong(limit: Int)
    /// A decoded value longer than `ParameterLimits.maxValueBytes`.
    case valueTooLong(name: String, limit: Int)
    /// A list with more elements than `ParameterLimits.maxListLength`.
    case listTooLong(name: String, limit: Int)
    /// A parameter that must be a scalar (`key`, `q`, `set-*`, ...) given two or more values.
    case repeatedScalar(name: String)
    /// `_method` on a GET or POST with a value other than GET, POST, PUT or DELETE.
    case invalidMethodOverride
    /// A `callback` that is not a plain JavaScript identifier path.
    case invalidCallback

    /// The Backbeam error answered for this failure.
    public var backbeamError: BackbeamError {
        BackbeamError(.invalidParameters, message)
    }

    /// The English message; names are shortened so that a message never echoes much client text.
    public var message: String {
        switch self {
        case .malformedPercentEscape(let source, let offset):
            return "Malformed percent escape in the \(source.rawValue) at byte \(offset)"
        case .invalidUTF8(let source, _):
            return "A parameter in the \(source.rawValue) is not valid UTF-8"
        case .tooManyParameters(let limit):
            return "Too many parameters (at most \(limit))"
        case .nameTooLong(let limit):
            return "A parameter name is longer than \(limit) bytes"
        case .valueTooLong(let name, let limit):
            return "The value of \(Self.shown(name)) is longer than \(limit) bytes"
        case .listTooLong(let name, let limit):
            return "The list \(Self.shown(name)) has more than \(limit) elements"
        case .repeatedScalar(let name):
            return "The parameter \(Self.shown(name)) must have a single value"
        case .invalidMethodOverride:
            return "The _method parameter must be GET, POST, PUT or DELETE"
        case .invalidCallback:
            return "The callback parameter is not a valid JavaScript identifier"
        }
    }

    /// A name as quoted in a message: at most 64 characters.
    static func shown(_ name: String) -> String {
        name.count <= 64 ? "'\(name)'" : "'\(name.prefix(64))...'"
    }
}
