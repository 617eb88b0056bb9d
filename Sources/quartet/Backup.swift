import ArgumentParser
import Foundation
import App

/// `quartet backup DEST`: online backup of the database (SQLite backup API) plus the blobs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database (online, through SQLite's backup API) and the blobs into DEST.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "Destination directory (created; must not already hold a backup).")
    var destination: String

    func run() throws {
        let config = try common.load()
        let onTerminal = isatty(1) != 0
        try DatabaseMaintenance.backup(config, to: destination) { remaining, total in
            guard onTerminal, total > 0 else { return }
            let done = total - remaining
            print("\rbackup: \(done * 100 / total)% (\(done)/\(total) pages)", terminator: "")
            fflush(nil)  // nil flushes every stream; `stdout` itself is not concurrency-safe to reference
        }
        if onTerminal { print("") }
        print("backup written to \(destination)")
    }
}
