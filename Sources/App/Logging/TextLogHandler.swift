import Foundation
import Logging
import Core

/// `2024-01-02T03:04:05.678Z info quartet: message key=value` lines for people reading a terminal.
public struct TextLogHandler: LogHandler {
    /// The logger's label.
    public let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler for `label`.
    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?,
                    source: String, file: String, function: String, line: UInt) {
        var all = metadata
        if let extra { all.merge(extra) { $1 } }
        var text = "\(ISO8601.formatMillis(Date())) \(level) \(label): \(message)"
        for key in all.keys.sorted() { text += " \(key)=\(all[key].map { "\($0)" } ?? "")" }
        StdoutWriter.write(text)
    }
}
