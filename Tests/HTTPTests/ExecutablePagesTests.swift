import Foundation
import XCTest
@testable import HTTP

final class ExecutablePagesTests: XCTestCase {
    /// The resident file-backed pages of this process, from /proc/self/status (kB).
    private func residentFilePages() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// The test runner's own code is advised away like the daemon's: some bytes are advised, resident file
    /// pages go down, and the code that runs afterwards (this test) faults back in as it needs.
    func testReleasingTheExecutablesPagesLowersTheResidentFilePages() throws {
        let before = try residentFilePages()
        let advised = ExecutablePages.releaseAfterStartup()
        let after = try residentFilePages()
        XCTAssertGreaterThan(advised, 0)
        XCTAssertLessThan(after, before, "RssFile \(before) kB -> \(after) kB after advising \(advised) bytes")
        // Code released is still there to run.
        XCTAssertEqual(try FormParameters.parse("a=1").first("a"), "1")
    }
}
