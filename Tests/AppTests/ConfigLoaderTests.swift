import XCTest
import Foundation
import Core
@testable import App

final class ConfigLoaderTests: XCTestCase {
    func tempFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testDefaultsApplyWithoutFileOrEnvironment() throws {
        let c = try ConfigLoader(environment: [:]).load()
        XCTAssertEqual(c.port, 8080)
        XCTAssertEqual(c.host, "127.0.0.1")
        XCTAssertEqual(c.synchronous, "FULL")
        XCTAssertEqual(c.maxHeaderCount, 100)
        XCTAssertNil(c.adminPassword)
    }

    func testPrecedenceDefaultsFileEnvironmentFlags() throws {
        let file = try tempFile(#"{"server": {"port": 9001, "maxHeaderCount": 50, "idleTimeoutSeconds": 5}}"#)
        let env = ["QUARTET_SERVER_PORT": "9002", "QUARTET_SERVER_MAX_HEADER_COUNT": "60"]
        let c = try ConfigLoader(filePath: file, environment: env, overrides: [("server.port", 9003)]).load()
        XCTAssertEqual(c.port, 9003, "flag beats environment")
        XCTAssertEqual(c.maxHeaderCount, 60, "environment beats file")
        XCTAssertEqual(c.idleTimeoutSeconds, 5, "file beats default")
        XCTAssertEqual(c.maxBodyBytes, 16_777_216, "default where nothing else says")
    }

    func testWalAutocheckpointPagesDefaultEnvironmentAndRange() throws {
        XCTAssertEqual(try ConfigLoader(environment: [:]).load().walAutocheckpointPages, 10_000)
        let env = ["QUARTET_STORAGE_WAL_AUTOCHECKPOINT_PAGES": "2000"]
        XCTAssertEqual(try ConfigLoader(environment: env).load().walAutocheckpointPages, 2000)
        XCTAssertThrowsError(try ConfigLoader(environment: ["QUARTET_STORAGE_WAL_AUTOCHECKPOINT_PAGES": "0"]).load()) {
            XCTAssertEqual(($0 as? ConfigError)?.key, "storage.walAutocheckpointPages")
        }
    }

    func testWalWriteBufferBytesDefaultEnvironmentAndRange() throws {
        XCTAssertEqual(try ConfigLoader(environment: [:]).load().walWriteBufferBytes, 1_048_576)
        for (text, value) in [("0", 0), ("65536", 65536), ("4194304", 4_194_304)] {
            let env = ["QUARTET_STORAGE_WAL_WRITE_BUFFER_BYTES": text]
            XCTAssertEqual(try ConfigLoader(environment: env).load().walWriteBufferBytes, value)
        }
        for text in ["1", "65535", "1073741825", "-1"] {
            XCTAssertThrowsError(try ConfigLoader(environment: ["QUARTET_STORAGE_WAL_WRITE_BUFFER_BYTES": text]).load()) {
                XCTAssertEqual(($0 as? ConfigError)?.key, "storage.walWriteBufferBytes", text)
            }
        }
    }

    func testConfigEnvironmentVariableNamesTheFile() throws {
        let file = try tempFile(#"{"storage": {"readers": 7}}"#)
        XCTAssertEqual(try ConfigLoader(environment: ["QUARTET_CONFIG": file]).load().readers, 7)
    }

    func testInvalidValuesNameTheKey() throws {
        func key(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch let e as ConfigError { return e.key } catch { return "other: \(error)" }
        }
        XCTAssertEqual(key { _ = try ConfigLoader(environment: ["QUARTET_SERVER_PORT": "http"]).load() }, "server.port")
        XCTAssertEqual(key { _ = try ConfigLoader(environment: ["QUARTET_SERVER_PORT": "70000"]).load() }, "server.port")
        XCTAssertEqual(key { _ = try ConfigLoader(environment: ["QUARTET_STORAGE_SYNCHRONOUS": "SOMETIMES"]).load() }, "storage.synchronous")
        let typo = try tempFile(#"{"server": {"prot": 1}}"#)
        XCTAssertEqual(key { _ = try ConfigLoader(filePath: typo, environment: [:]).load() }, "server.prot")
        let wrongType = try tempFile(#"{"server": {"accessLog": "yes"}}"#)
        XCTAssertEqual(key { _ = try ConfigLoader(filePath: wrongType, environment: [:]).load() }, "server.accessLog")
        let notJSON = try tempFile("{server: 1}")
        XCTAssertEqual(key { _ = try ConfigLoader(filePath: notJSON, environment: [:]).load() }, "config")
        XCTAssertEqual(key { _ = try ConfigLoader(environment: ["QUARTET_SERVER_TLS_CERTIFICATE": "/c.pem"]).load() },
                       "server.tlsPrivateKey")
        XCTAssertEqual(key { _ = try ConfigLoader(environment: ["QUARTET_SERVER_CORS_ALLOW_CREDENTIALS": "true"]).load() },
                       "server.corsAllowCredentials")
    }

    func testHugeConfigFileIsRefusedWithoutReadingItWhole() throws {
        // A sparse 64 GiB file: reading it whole would exhaust memory; only the parser's limit is read.
        let path = try tempFile("{}")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 64 << 30)
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try ConfigLoader.readFile(path)) { error in
            XCTAssertEqual((error as? ConfigError)?.key, "config")
            XCTAssertTrue("\(error)".contains("larger than"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigLoader.readFile("/nonexistent/quartet.json")) { error in
            XCTAssertEqual((error as? ConfigError)?.key, "config")
        }
    }

    func testEnvironmentTypesAndLists() throws {
        let env = ["QUARTET_SERVER_ACCESS_LOG": "false",
                   "QUARTET_SERVER_CORS_ALLOWED_ORIGINS": "https://a.example, https://b.example",
                   "QUARTET_ADMIN_PASSWORD": "12345",
                   "QUARTET_PARSE_MASTER_KEY": "abc", "QUARTET_PARSE_MAX_LIMIT": "500"]
        let c = try ConfigLoader(environment: env).load()
        XCTAssertFalse(c.accessLog)
        XCTAssertEqual(c.corsAllowedOrigins, ["https://a.example", "https://b.example"])
        XCTAssertEqual(c.adminPassword, "12345", "a text option stays text even when it looks numeric")
        XCTAssertEqual(c.section("parse")["masterKey"]?.stringValue, "abc")
        XCTAssertEqual(c.section("parse")["maxLimit"]?.int64Value, 500)
    }

    func testShippedConfigFileListsExactlyTheDefaults() throws {
        let path = repositoryRoot().appendingPathComponent("Config/quartet.json").path
        let shipped = try ConfigLoader.readFile(path)
        let defaults = ConfigSchema.defaults
        for option in ConfigSchema.platform {
            XCTAssertEqual(shipped[option.section]?.objectValue?[option.key], option.defaultValue,
                           "Config/quartet.json \(option.path)")
        }
        // API sections are validated by their APIs (a black-box test starts the server with this file).
        for (section, value) in shipped where ConfigSchema.platform.contains(where: { $0.section == section }) {
            for (key, _) in value.objectValue ?? JSONObject() {
                XCTAssertNotNil(defaults[section]?.objectValue?[key], "Config/quartet.json has unknown \(section).\(key)")
            }
        }
    }

    func testEveryOptionIsDocumented() throws {
        let doc = try String(contentsOf: repositoryRoot().appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        for option in ConfigSchema.platform {
            XCTAssertTrue(doc.contains("`\(option.key)`"), "docs/configuration.md lacks \(option.path)")
        }
        // Every key of every section of the shipped file, API sections included, is documented.
        let shipped = try ConfigLoader.readFile(repositoryRoot().appendingPathComponent("Config/quartet.json").path)
        for (section, value) in shipped {
            for (key, _) in value.objectValue ?? JSONObject() {
                XCTAssertTrue(doc.contains("`\(key)`"), "docs/configuration.md lacks \(section).\(key)")
            }
        }
    }

    func testSecretsAreMasked() throws {
        let tree: JSONObject = ["admin": ["user": "admin", "password": "s3cret"],
                                "parse": ["masterKey": "m", "masterKeyIps": ["127.0.0.1"]]]
        let masked = ConfigPrinter.masked(tree)
        XCTAssertEqual(masked["admin"]?["password"]?.stringValue, "********")
        XCTAssertEqual(masked["admin"]?["user"]?.stringValue, "admin")
        XCTAssertEqual(masked["parse"]?["masterKey"]?.stringValue, "********")
        XCTAssertEqual(masked["parse"]?["masterKeyIps"]?[0]?.stringValue, "127.0.0.1")
    }

    func repositoryRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
