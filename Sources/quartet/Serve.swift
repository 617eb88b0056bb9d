import ArgumentParser
import Foundation
import Logging
import App

/// `quartet serve`: runs the daemon until SIGTERM or SIGINT, then drains and exits 0 (3 when requests
/// outlasting `server.shutdownGraceSeconds` had to be cancelled).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (default command).")

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: "Address to listen on (server.host).")
    var host: String?

    @Option(name: .long, help: "Port to listen on; 0 picks a free one (server.port).")
    var port: Int?

    func run() throws {
        let config = try common.load { flags in
            flags.host = host
            flags.port = port
        }
        LoggingSetup.bootstrap(format: config.logFormat, level: config.logLevel)
        let logger = Logger(label: "quartet")

        // Signals are handled on a Dispatch source, so block their default action first.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let daemon = Daemon(config: config, logger: logger)
        let line: String
        do {
            line = try daemon.start()
        } catch {
            logger.critical("start-up failed: \(error)")
            throw ExitCode(1)
        }
        // The start-up line is printed whatever the configured level: scripts and tests wait for it.
        var startup = logger
        startup.logLevel = min(logger.logLevel, .notice)
        startup.notice("\(line)")

        let stopped = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "quartet.signals")
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                logger.notice("received signal \(sig), draining")
                stopped.signal()
            }
            source.resume()
            sources.append(source)
        }
        stopped.wait()
        let outcome = daemon.stop()
        logger.notice("stopped")
        _ = sources
        // A handler cancelled at the end of the grace may still be running on a worker: end the process
        // at once rather than run exit handlers next to it.
        if outcome != .clean { _exit(outcome.exitStatus) }
    }
}
