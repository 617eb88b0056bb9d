import Foundation
import XCTest

/// A throwaway PKI made by `Tests/Support/make-test-pki.sh` (a test CA, a second CA nobody trusts, and
/// leaf certificates for the right name, a DNS name only, a wrong name, and from the untrusted CA) in a
/// temporary directory, removed by `remove()`. Skips the test when the openssl tool is not installed.
struct TestPKI {
    let directory: String

    init() throws {
        guard ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"].contains(where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("the openssl command-line tool is not installed") }
        directory = NSTemporaryDirectory() + "pki-\(UUID().uuidString)"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/make-test-pki.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script, directory]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The test CA's certificate (PEM).
    var ca: String { directory + "/ca.pem" }

    /// The certificate and key files of leaf `name` (`localhost`, `dns-only`, `wrong-host`, `untrusted`).
    func leaf(_ name: String) -> (certificate: String, key: String) {
        (directory + "/\(name).pem", directory + "/\(name).key")
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
