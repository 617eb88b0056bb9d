// swift-tools-version:6.0
// Quartet: one daemon, four wire-compatible mobile-backend APIs over one SQLite store.
import PackageDescription

/// Strict settings shared by every Swift target.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Quartet",
    products: [
        .executable(name: "quartet", targets: ["quartet"]),
        // The storage engine alone, for the write benchmark package under Benchmarks/.
        .library(name: "QuartetStorage", targets: ["Storage"]),
        // The Files module alone, for the image benchmark package under Benchmarks/.
        .library(name: "QuartetFiles", targets: ["Files"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // 1.16.2: `LogHandler.log(event:)`, which the daemon's stdout handler implements.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // System C libraries. Each is imported only by the module that wraps it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCrypt", pkgConfig: "libcrypt", providers: [.apt(["libcrypt-dev"])]),
        // zlib: gzip request bodies and gzip-stored attachments (Couch). Wrapped by Core/Compression.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // A SQLite VFS shim (C, over the system libsqlite3) that writes a WAL commit's frames in one call.
        .target(name: "CWALBuffer", dependencies: ["CSQLite"]),
        // The event loop's system calls (epoll, eventfd, accept4) from the real Linux headers. Its header
        // stops the build with a clear message on any other platform: Quartet builds on Linux only.
        .target(name: "CEventLoop"),
        // Non-variadic C wrappers over the system libvips (Debian libvips42), which it loads with dlopen on
        // first use instead of linking it: see Sources/CVips/include/cvips.h. Only Files imports it.
        .target(name: "CVips", linkerSettings: [.linkedLibrary("dl")]),

        .target(name: "Core", dependencies: ["COpenSSL", "CZlib"], swiftSettings: strict),
        .target(name: "HTTP",
                dependencies: ["Core", "COpenSSL", "CEventLoop", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "Storage",
                dependencies: ["Core", "CSQLite", "CWALBuffer", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        // Auth keeps the server admin's account through a store protocol; its SQLite store needs Storage.
        .target(name: "Auth", dependencies: ["Core", "Storage", "COpenSSL", "CCrypt"], swiftSettings: strict),
        // Files: MIME types and sniffing, safe names, uploads into the blob store, serving blobs, image variants.
        .target(name: "Files", dependencies: ["HTTP", "Storage", "CVips", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        // Shared by the APIs' query compilers: the safe regex engine, JSON paths, comparison rules. No SQL.
        .target(name: "QueryKit", dependencies: ["Core"], swiftSettings: strict),
        // Requests parked until Storage's change events wake them (long polls, continuous feeds): above
        // HTTP and Storage, which must not know each other.
        .target(name: "ChangeFeed", dependencies: ["Core", "HTTP", "Storage"], swiftSettings: strict),
        .target(name: "ParseAPI",
                dependencies: ["Core", "HTTP", "Storage", "Auth", "Files", "QueryKit", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "DatastoreAPI",
                dependencies: ["Core", "HTTP", "Storage", "Auth", "ChangeFeed", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "BackbeamAPI",
                dependencies: ["Core", "HTTP", "Storage", "Auth", "Files", "QueryKit", .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "CouchAPI",
                dependencies: ["Core", "HTTP", "Storage", "Auth", "ChangeFeed",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "App",
                dependencies: ["Core", "HTTP", "Storage", "Auth", "ParseAPI", "DatastoreAPI", "CouchAPI", "BackbeamAPI",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .executableTarget(name: "quartet",
                          dependencies: ["App",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Logging", package: "swift-log")],
                          swiftSettings: strict),

        .testTarget(name: "CoreTests", dependencies: ["Core"], swiftSettings: strict),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Core"], swiftSettings: strict),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Core"], swiftSettings: strict),
        .testTarget(name: "AuthTests", dependencies: ["Auth", "Core", "Storage"], swiftSettings: strict),
        .testTarget(name: "FilesTests", dependencies: ["Files", "HTTP", "Storage", .product(name: "Logging", package: "swift-log")],
                    swiftSettings: strict),
        .testTarget(name: "QueryKitTests", dependencies: ["QueryKit", "Core"], swiftSettings: strict),
        .testTarget(name: "ChangeFeedTests", dependencies: ["ChangeFeed", "HTTP", "Storage"], swiftSettings: strict),
        .testTarget(name: "ParseAPITests", dependencies: ["ParseAPI", "Core"], swiftSettings: strict),
        .testTarget(name: "DatastoreAPITests", dependencies: ["DatastoreAPI", "Core", "Auth"], swiftSettings: strict),
        .testTarget(name: "BackbeamAPITests", dependencies: ["BackbeamAPI", "Core", "Storage", "Files"], swiftSettings: strict),
        .testTarget(name: "CouchAPITests", dependencies: ["CouchAPI", "Core", "HTTP", "Storage", "Auth"],
                    swiftSettings: strict),
        .testTarget(name: "AppTests", dependencies: ["App", "Core"], swiftSettings: strict),
        // Reads Sources/ and checks the module layers and the SQL-placement rule of docs/architecture.md.
        .testTarget(name: "ArchitectureTests", swiftSettings: strict),
        // Black-box tests: they start the built `quartet` binary and talk to it over sockets.
        .testTarget(name: "ConformanceTests", dependencies: ["quartet", "Core", "Storage", "COpenSSL"], swiftSettings: strict),
        // Replays the fuzzing seed corpora (Fuzz/Corpus) through the harnesses' entry points (Fuzz/Entries).
        .testTarget(name: "FuzzReplayTests", dependencies: fuzzEntryDependencies, path: "Fuzz",
                    exclude: ["Corpus", "Driver", "run.sh"], sources: ["Entries", "Replay"], swiftSettings: strict),
    ]
)

/// What the fuzzing entry points parse with.
var fuzzEntryDependencies: [Target.Dependency] {
    ["Core", "HTTP", "Storage", "QueryKit", "Files", "ParseAPI", "DatastoreAPI", "CouchAPI", "BackbeamAPI",
     .product(name: "Logging", package: "swift-log")]
}

// `make fuzz` sets QUARTET_FUZZ=1 and builds in its own scratch path with -sanitize=fuzzer: the replay test
// target gives way to a library of the same entry points (a file belongs to one target) and the libFuzzer
// driver `quartet-fuzz`. The ordinary build never sees either.
if Context.environment["QUARTET_FUZZ"] == "1" {
    package.targets.removeAll { $0.name == "FuzzReplayTests" }
    package.targets += [
        .target(name: "FuzzEntries", dependencies: fuzzEntryDependencies, path: "Fuzz/Entries", swiftSettings: strict),
        // lld: gold fails on this link (an internal error reading the sanitizer runtime's debug info).
        .executableTarget(name: "quartet-fuzz", dependencies: ["FuzzEntries"], path: "Fuzz/Driver", swiftSettings: strict,
                          linkerSettings: [.unsafeFlags(["-use-ld=lld"])]),
    ]
}
