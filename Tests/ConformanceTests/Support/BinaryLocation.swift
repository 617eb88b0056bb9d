import Foundation

/// Where the built `quartet` executable lives: in the build products folder that also holds the tests.
enum BinaryLocation {
    /// On Linux the test bundle is an executable inside the products folder (its bundle URL is that folder);
    /// on macOS it is a `.xctest` directory inside it.
    static var productsDirectory: URL {
        let url = Bundle(for: Marker.self).bundleURL
        return url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url
    }
    static var quartet: URL { productsDirectory.appendingPathComponent("quartet") }
    private final class Marker {}
}
