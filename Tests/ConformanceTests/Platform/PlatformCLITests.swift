import XCTest
import Foundation

/// The `quartet` command line seen from outside: version, check-config, migrate, backup, bad configuration,
/// JSON logs.
final class PlatformCLITests: XCTestCase {
    /// Runs the binary to completion (killed after `timeout`, so a server that should have refused to start
    /// cannot hang the suite) and returns its exit status and combined output.
    func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = BinaryLocation.quartet
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func tempDir() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("quartet-cli-\(UUID().uuidString)").path
    }

    var migrations: String { TestServer.migrationsDirectory.path }

    func testVersion() throws {
        let (status, out) = try run(["version"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.hasPrefix("Quartet "), out)
    }

    func testCheckConfigPrintsEffectiveValuesWithSecretsMasked() throws {
        let (status, out) = try run(["check-config"], environment: ["QUARTET_SERVER_PORT": "9123",
                                                                    "QUARTET_ADMIN_PASSWORD": "hunter2"])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("\"port\":9123"), out)
        XCTAssertFalse(out.contains("hunter2"), out)
        XCTAssertTrue(out.contains("********"), out)
    }

    func testInvalidConfigurationStopsStartupNamingTheKey() throws {
        let (status, out) = try run(["serve", "--port", "0", "--data-dir", tempDir()],
                                    environment: ["QUARTET_SERVER_MAX_HEADER_COUNT": "lots"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(out.contains("server.maxHeaderCount"), out)
    }

    func testShippedConfigurationFileStartsTheServer() throws {
        let file = TestServer.migrationsDirectory.deletingLastPathComponent().appendingPathComponent("Config/quartet.json").path
        let server = try TestServer(arguments: ["--config", file])
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/health").status, 200)
    }

    func testStartupLineIsPrintedAtAnyLogLevel() throws {
        let server = try TestServer(arguments: ["--log-level", "error"])
        defer { server.stop() }
        XCTAssertTrue(server.output.contains("listening on http://127.0.0.1:\(server.port)"), server.output)
    }

    func testMigrateAppliesThenReportsUpToDate() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s1, first) = try run(["migrate", "--data-dir", dir, "--migrations-dir", migrations])
        XCTAssertEqual(s1, 0, first)
        XCTAssertTrue(first.contains("applied 1 core"), first)
        let (s2, second) = try run(["migrate", "--data-dir", dir, "--migrations-dir", migrations])
        XCTAssertEqual(s2, 0, second)
        XCTAssertTrue(second.contains("up to date"), second)
    }

    func testRefusesDatabaseWithUnknownMigration() throws {
        let dir = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let extra = tempDir()
        try FileManager.default.createDirectory(atPath: extra, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: migrations) {
            try FileManager.default.copyItem(atPath: migrations + "/" + name, toPath: extra + "/" + name)
        }
        // The next number after the shipped ones: a migration from a newer release.
        let shipped = try FileManager.default.contentsOfDirectory(atPath: migrations).compactMap { Int($0.prefix(4)) }
        let next = (shipped.max() ?? 0) + 1
        let name = String(format: "%04d_future.sql", next)
        try "CREATE TABLE future_only(x INTEGER);".write(toFile: extra + "/" + name, atomically: true, encoding: .utf8)
        let (migrated, log) = try run(["migrate", "--data-dir", dir, "--migrations-dir", extra])
        XCTAssertEqual(migrated, 0, log)
        let (status, out) = try run(["serve", "--port", "0", "--data-dir", dir, "--migrations-dir", migrations], timeout: 20)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(out.contains("\(next)"), out)
        XCTAssertFalse(out.contains("listening on"), out)
    }

    func testBackupWhileServingGivesAUsableCopy() throws {
        let server = try TestServer()
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/health").status, 200)
        let dest = tempDir()
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let (status, out) = try run(["backup", dest, "--data-dir", server.dataDirectory.path])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest + "/quartet.sqlite3"))
        // The copy is a complete database: migrate finds it up to date.
        let (s2, again) = try run(["migrate", "--data-dir", dest, "--migrations-dir", migrations])
        XCTAssertEqual(s2, 0, again)
        XCTAssertTrue(again.contains("up to date"), again)
    }

    func testJSONLogLines() throws {
        let server = try TestServer(environment: ["QUARTET_LOGGING_FORMAT": "json"])
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/health").status, 200)
        usleep(200_000)
        let lines = server.output.split(separator: "\n").filter { $0.hasPrefix("{") }
        XCTAssertFalse(lines.isEmpty, server.output)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertNotNil(object?["level"], String(line))
            XCTAssertNotNil(object?["msg"], String(line))
        }
        XCTAssertTrue(lines.contains { $0.contains("GET /health 200") }, "access log line")
    }
}
