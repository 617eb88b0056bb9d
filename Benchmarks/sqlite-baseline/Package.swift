// swift-tools-version:6.0
// Baseline for Quartet's write benchmarks: durable one-row transactions straight into SQLite, with no
// server and no group commit, from N threads for D seconds. A separate package; Quartet never uses it.
import PackageDescription

let package = Package(
    name: "sqlite-baseline",
    targets: [
        .systemLibrary(name: "CSQLiteBaseline", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(name: "SQLiteBaseline", dependencies: ["CSQLiteBaseline"]),
    ]
)
