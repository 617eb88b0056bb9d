import Foundation

/// Where the built `quartet` executable lives: next to the test bundle in the build products folder.
enum BinaryLocation {
    static var productsDirectory: URL {
        Bundle(for: Marker.self).bundleURL.deletingLastPathComponent()
    }
    static var quartet: URL { productsDirectory.appendingPathComponent("quartet") }
    private final class Marker {}
}
