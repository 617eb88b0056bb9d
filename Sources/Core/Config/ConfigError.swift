import Foundation

/// A configuration value that cannot be used. Start-up stops and prints it as `key: reason`.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Dotted path of the option in the configuration file, e.g. `parse.masterKey`.
    public let key: String
    /// What is wrong with it, e.g. `must be a string`.
    public let reason: String

    /// An error for option `key`.
    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    /// `key: reason`, e.g. `parse.masterKey: must be a string`.
    public var description: String { "\(key): \(reason)" }

    /// Same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
