// swift-tools-version:6.0
// Image benchmark: first-time thumbnails and cache hits through Quartet's Files module (ImageVariants).
import PackageDescription

let package = Package(
    name: "image-thumbs",
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(name: "image-thumbs", dependencies: [
            .product(name: "QuartetFiles", package: "Quartet"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ]
)
