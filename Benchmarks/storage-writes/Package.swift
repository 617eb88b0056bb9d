// swift-tools-version:6.0
// Write benchmark: group commit vs one transaction per job, through Quartet's own Storage module.
import PackageDescription

let package = Package(
    name: "storage-writes",
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(name: "storage-writes", dependencies: [
            .product(name: "QuartetStorage", package: "Quartet"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ]
)
