import Foundation
import Logging
import Core

/// One line per log record on stdout: human-readable text for a terminal, or a JSON object for log
/// collectors. Handler metadata and a record's own metadata are merged, the record's winning.
public struct StdoutLogHandler: LogHandler {
    /// How each line is written.
    public enum Format: Sendable {
        /// `2024-01-02T03:04:05.678Z info quartet: message key=value`.
        case text
        /// `{"ts": ..., "level": ..., "logger": ..., "msg": ..., <metadata>}`.
        case json
    }

    /// The logger's label.
    public let label: String
    /// The line format.
    public let format: Format
    /// Lowest level written.
    public var logLevel: Logger.Level = .info
    /// Metadata attached to every record of this handler.
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler for `label` writing `format` lines.
    public init(label: String, format: Format) {
        self.label = label
        self.format = format
    }

    /// One metadata value of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the record as one line.
    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let timestamp = ISO8601.formatMillis(Date())
        switch format {
        case .text: StdoutWriter.write(textLine(timestamp, event.level, event.message, all))
        case .json: StdoutWriter.write(jsonLine(timestamp, event.level, event.message, all))
        }
    }

    private func textLine(_ timestamp: String, _ level: Logger.Level, _ message: Logger.Message,
                          _ all: Logger.Metadata) -> String {
        var text = "\(timestamp) \(level) \(label): \(message)"
        for key in all.keys.sorted() { text += " \(key)=\(all[key].map { "\($0)" } ?? "")" }
        return text
    }

    private func jsonLine(_ timestamp: String, _ level: Logger.Level, _ message: Logger.Message,
                          _ all: Logger.Metadata) -> String {
        var object: JSONObject = [
            "ts": .string(timestamp),
            "level": .string(level.rawValue),
            "logger": .string(label),
            "msg": .string(message.description),
        ]
        // The four fixed keys win over metadata of the same name.
        for key in all.keys.sorted() where object[key] == nil {
            object[key] = .string(all[key].map { "\($0)" } ?? "")
        }
        return JSON.object(object).serialized()
    }
}
