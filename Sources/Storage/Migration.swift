import Foundation

/// One forward-only schema change, from `Migrations/NNNN_name.sql`.
public struct Migration: Sendable, Hashable {
    /// The NNNN number; versions start at 1 and have no gaps.
    public let version: Int
    /// The part of the file name after the number ("core" for 0001_core.sql).
    public let name: String
    /// The SQL script. It must not contain BEGIN/COMMIT: the migrator runs it inside its own transaction.
    public let sql: String

    /// A migration given directly (tests, or migrations compiled into the binary).
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// Parses a file name of the form `NNNN_name.sql`: exactly four digits, an underscore, then lowercase
    /// letters, digits and underscores. Nil for anything else.
    public static func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
        let bytes = Array(fileName.utf8)
        guard bytes.count > 9, fileName.hasSuffix(".sql") else { return nil }
        let digits = bytes.prefix(4)
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              bytes[4] == UInt8(ascii: "_") else { return nil }
        let nameBytes = bytes[5..<(bytes.count - 4)]
        guard !nameBytes.isEmpty, nameBytes.allSatisfy({
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
        }) else { return nil }
        guard let version = Int(String(decoding: digits, as: UTF8.self)), version > 0 else { return nil }
        return (version, String(decoding: nameBytes, as: UTF8.self))
    }
}
