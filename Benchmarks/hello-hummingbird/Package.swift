// swift-tools-version:6.0
// Comparison server for Quartet's benchmarks: the smallest Hummingbird 2 app answering GET /health.
// A separate package; Quartet itself never depends on it.
import PackageDescription

let package = Package(
    name: "hello-hummingbird",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "HelloHummingbird",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)
