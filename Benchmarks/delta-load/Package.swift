// swift-tools-version:6.0
// Load client for Quartet's put_delta benchmark: C connections on T event-loop threads, each connection
// bound to its own datastore and sending that datastore's current revision with every delta. A separate
// package; Quartet never uses it.
import PackageDescription

let package = Package(
    name: "delta-load",
    targets: [
        .executableTarget(name: "DeltaLoad"),
    ]
)
