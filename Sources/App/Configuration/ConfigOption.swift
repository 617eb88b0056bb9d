import Foundation
import Core

/// The kind of value an option takes; used to validate the merged configuration and to read
/// `QUARTET_*` environment variables, which are always text.
public enum ConfigKind: Sendable {
    case string, optionalString, integer(ClosedRange<Int>), optionalInteger(ClosedRange<Int>), boolean
    /// 0 (the feature off) or an integer in the range.
    case zeroOrInteger(ClosedRange<Int>)
    case choice([String]), stringList
}

/// One documented option of the configuration file: `section.key`, its default and its kind.
public struct ConfigOption: Sendable {
    /// The section (`server`, `storage`, ...).
    public let section: String
    /// The camelCase key inside the section.
    public let key: String
    /// The built-in default.
    public let defaultValue: JSON
    /// What values are valid.
    public let kind: ConfigKind
    /// One line for `docs/configuration.md` and `check-config`.
    public let summary: String

    /// Creates an option.
    public init(_ section: String, _ key: String, _ defaultValue: JSON, _ kind: ConfigKind, _ summary: String) {
        self.section = section
        self.key = key
        self.defaultValue = defaultValue
        self.kind = kind
        self.summary = summary
    }

    /// `section.key`, the name used in error messages.
    public var path: String { "\(section).\(key)" }

    /// `QUARTET_<SECTION>_<UPPER_SNAKE_KEY>`, the environment form of the option.
    public var environmentName: String {
        "QUARTET_\(section.uppercased())_\(ConfigOption.upperSnake(key))"
    }

    /// `maxBodyBytes` -> `MAX_BODY_BYTES`.
    public static func upperSnake(_ camel: String) -> String {
        var out = ""
        for ch in camel {
            if ch.isUppercase, !out.isEmpty { out.append("_") }
            out += ch.uppercased()
        }
        return out
    }

    /// `MAX_BODY_BYTES` -> `maxBodyBytes`.
    public static func camel(fromUpperSnake s: String) -> String {
        let words = s.lowercased().split(separator: "_")
        guard let first = words.first else { return "" }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Checks `value` against the kind, returning the reason it is invalid or nil.
    public func problem(with value: JSON) -> String? {
        switch kind {
        case .string:
            return value.stringValue == nil ? "must be a string" : nil
        case .optionalString:
            return value.isNull || value.stringValue != nil ? nil : "must be a string or null"
        case .boolean:
            return value.boolValue == nil ? "must be true or false" : nil
        case .integer(let range):
            guard let v = value.int64Value, let i = Int(exactly: v) else { return "must be an integer" }
            return range.contains(i) ? nil : "must be between \(range.lowerBound) and \(range.upperBound)"
        case .zeroOrInteger(let range):
            guard let v = value.int64Value, let i = Int(exactly: v) else { return "must be an integer" }
            return i == 0 || range.contains(i) ? nil : "must be 0 or between \(range.lowerBound) and \(range.upperBound)"
        case .optionalInteger(let range):
            if value.isNull { return nil }
            guard let v = value.int64Value, let i = Int(exactly: v) else { return "must be an integer or null" }
            return range.contains(i) ? nil : "must be between \(range.lowerBound) and \(range.upperBound)"
        case .choice(let choices):
            guard let s = value.stringValue, choices.contains(s) else {
                return "must be one of \(choices.joined(separator: ", "))"
            }
            return nil
        case .stringList:
            guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                return "must be a list of strings"
            }
            return nil
        }
    }

    /// Converts an environment variable's text to a value of this option's kind, or nil if it does not fit.
    public func value(fromEnvironment text: String) -> JSON? {
        switch kind {
        case .string, .choice:
            return .string(text)
        case .optionalString:
            return text.isEmpty ? .null : .string(text)
        case .boolean:
            return ConfigSection.boolean(fromText: text).map(JSON.bool)
        case .integer, .optionalInteger, .zeroOrInteger:
            if text.isEmpty, case .optionalInteger = kind { return .null }
            return ConfigSection.integer(fromText: text).map { .number(JSONNumber($0)) }
        case .stringList:
            // A JSON array, or a comma-separated list ("https://a.example,https://b.example").
            if let parsed = try? JSONParser.parse(text), parsed.arrayValue != nil { return parsed }
            return .array(ConfigSection.list(fromText: text).map { .string($0) })
        }
    }
}
