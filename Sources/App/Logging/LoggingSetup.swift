import Foundation
import Logging

/// Installs the process-wide swift-log backend once: human-readable lines or JSON lines on stdout.
public enum LoggingSetup {
    private static let once = OnceFlag()

    /// Bootstraps swift-log. Later calls are ignored (swift-log allows one bootstrap per process).
    public static func bootstrap(format: String, level: String) {
        guard once.claim() else { return }
        let logLevel = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StdoutLogHandler(label: label, format: format == "json" ? .json : .text)
            handler.logLevel = logLevel
            return handler
        }
    }
}

/// A flag that can be claimed once, from any thread.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false
    func claim() -> Bool { lock.lock(); defer { lock.unlock() }; if claimed { return false }; claimed = true; return true }
}

/// Serialises writes to stdout so lines from different threads never interleave.
enum StdoutWriter {
    private static let lock = NSLock()
    static func write(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(1, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}
