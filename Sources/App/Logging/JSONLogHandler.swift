import Foundation
import Logging
import Core

/// One JSON object per line (`ts`, `level`, `logger`, `msg`, then metadata) for log collectors.
public struct JSONLogHandler: LogHandler {
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
        var object: JSONObject = [
            "ts": .string(ISO8601.formatMillis(Date())),
            "level": .string(level.rawValue),
            "logger": .string(label),
            "msg": .string(message.description),
        ]
        for key in all.keys.sorted() where object[key] == nil {
            object[key] = .string(all[key].map { "\($0)" } ?? "")
        }
        StdoutWriter.write(JSON.object(object).serialized())
    }
}
