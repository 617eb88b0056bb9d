import Foundation

/// Command-line options of the baseline run.
struct Options {
    /// Writer threads.
    var threads = 4
    /// Length of the measured run.
    var seconds = 5.0
    /// Database file; removed (with its -wal and -shm files) before the run.
    var path = NSTemporaryDirectory() + "sqlite-baseline.db"
    /// SQLite `synchronous` setting; FULL makes every commit durable (an fsync of the WAL).
    var synchronous = "FULL"
    /// One connection shared under a lock, instead of one connection per thread.
    var shared = false
    /// Rows inserted by each transaction (the `_bulk_docs` comparison uses 1000).
    var rowsPerTransaction = 1
    /// Primary-key point lookups instead of inserts (the `_bulk_get` comparison).
    var lookups = false
    /// Rows seeded before a lookup run (the Couch section seeds 20,000 documents).
    var rows = 20_000
    /// Size of each seeded row's body (the Couch section's documents are about 1 KB of JSON).
    var rowBytes = 1_000

    static let usage = """
    usage: SQLiteBaseline [--threads N] [--seconds D] [--db PATH] [--synchronous FULL|NORMAL|OFF|EXTRA] [--shared]
                          [--rows-per-transaction R]
           SQLiteBaseline --lookups [--threads N] [--seconds D] [--db PATH] [--shared] [--rows R] [--row-bytes B]
      Inserts R rows (default 1) per transaction (journal_mode=WAL) from N threads for D seconds and prints rows/s.
      --lookups  seeds a table of R rows (default 20000) of B bytes (default 1000) with text primary keys,
                 then N threads look random existing keys up for D seconds and print lookups/s
      --shared   all threads use one connection behind a lock (default: a connection per thread,
                 contending through busy_timeout)
    """

    /// Parses `arguments` (without the program name); a failure carries the message to print.
    static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--shared":
                options.shared = true
            case "--lookups":
                options.lookups = true
            case "--rows", "--row-bytes":
                guard let value = rest.popFirst() else { return .failure(OptionsError("\(flag) needs a value")) }
                guard let n = Int(value), (1...10_000_000).contains(n) else {
                    return .failure(OptionsError("\(flag) must be 1...10000000"))
                }
                if flag == "--rows" { options.rows = n } else { options.rowBytes = n }
            case "--threads", "--seconds", "--db", "--synchronous", "--rows-per-transaction":
                guard let value = rest.popFirst() else { return .failure(OptionsError("\(flag) needs a value")) }
                switch flag {
                case "--threads":
                    guard let n = Int(value), (1...1024).contains(n) else { return .failure(OptionsError("--threads must be 1...1024")) }
                    options.threads = n
                case "--seconds":
                    guard let d = Double(value), d > 0, d <= 3600 else { return .failure(OptionsError("--seconds must be in (0, 3600]")) }
                    options.seconds = d
                case "--db":
                    options.path = value
                case "--rows-per-transaction":
                    guard let n = Int(value), (1...100_000).contains(n) else {
                        return .failure(OptionsError("--rows-per-transaction must be 1...100000"))
                    }
                    options.rowsPerTransaction = n
                default:
                    let mode = value.uppercased()
                    guard ["FULL", "NORMAL", "OFF", "EXTRA"].contains(mode) else {
                        return .failure(OptionsError("--synchronous must be FULL, NORMAL, OFF or EXTRA"))
                    }
                    options.synchronous = mode
                }
            case "-h", "--help":
                return .failure(OptionsError(""))
            default:
                return .failure(OptionsError("unknown argument \(flag)"))
            }
        }
        return .success(options)
    }
}

/// A command-line mistake, printed before the usage text.
struct OptionsError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
