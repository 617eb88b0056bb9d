import XCTest
import Core
@testable import DatastoreAPI

/// The `datastore` configuration section: defaults, clamping, validation naming the key.
final class ConfigTests: XCTestCase {
    private func config(_ text: String) throws -> DatastoreConfig {
        guard case .object(let section) = try JSONParser.parse(text) else { throw ConfigError(key: "test", reason: "not an object") }
        return try DatastoreConfig(section)
    }

    private func failingKey(_ text: String) -> String? {
        do { _ = try config(text); return nil } catch let error as ConfigError { return error.key } catch { return "\(error)" }
    }

    func testDefaults() throws {
        let c = try config("{}")
        XCTAssertEqual(c.awaitTimeoutSeconds, 30)
        XCTAssertEqual(c.maxAwaitsPerUser, 64)
        XCTAssertEqual(c.sizeHeadroomPercent, 10)
        XCTAssertEqual(c.maxBodyBytes, 32 << 20)
        XCTAssertEqual(c.maxUrlBytes, 64 << 10)
        XCTAssertEqual(c.maxDeltasPerResponse, 10_000)
        XCTAssertEqual(c.maxDeltaBytesPerResponse, 16 << 20)
        XCTAssertTrue(c.staticTokens.isEmpty)
    }

    func testAwaitTimeoutIsClamped() throws {
        XCTAssertEqual(try config("{\"awaitTimeoutSeconds\":120}").awaitTimeoutSeconds, 50)
        XCTAssertEqual(try config("{\"awaitTimeoutSeconds\":0}").awaitTimeoutSeconds, 1)
        XCTAssertEqual(try config("{\"awaitTimeoutSeconds\":\"3\"}").awaitTimeoutSeconds, 3)
    }

    func testInvalidValuesNameTheirKey() {
        XCTAssertEqual(failingKey("{\"awaitTimeoutSeconds\":\"soon\"}"), "datastore.awaitTimeoutSeconds")
        XCTAssertEqual(failingKey("{\"sizeHeadroomPercent\":-1}"), "datastore.sizeHeadroomPercent")
        XCTAssertEqual(failingKey("{\"nope\":1}"), "datastore.nope")
        XCTAssertEqual(failingKey("{\"staticTokens\":{\"bad token!\":\"alice\"}}"), "datastore.staticTokens")
        XCTAssertEqual(failingKey("{\"staticTokens\":{\"goodtoken\":\"bad name\"}}"), "datastore.staticTokens")
        XCTAssertEqual(failingKey("{\"teams\":{\"t\":\"alice\"}}"), "datastore.teams")
        XCTAssertEqual(failingKey("{\"limits\":{\"maxBodyBytes\":\"x\"}}"), "datastore.limits.maxBodyBytes")
        XCTAssertEqual(failingKey("{\"enabled\":\"maybe\"}"), "datastore.enabled")
    }

    func testStaticTokensKeepOrderAndAcceptJSONText() throws {
        let c = try config("{\"staticTokens\":\"{\\\"tokB\\\":\\\"bob\\\",\\\"tokA\\\":\\\"alice\\\"}\",\"teams\":{\"crew\":[\"alice\",\"bob\"]}}")
        XCTAssertEqual(c.staticTokens.map(\.user), ["bob", "alice"])
        XCTAssertTrue(TeamDirectory(c.teams).sameTeam("alice", "bob"))
        XCTAssertFalse(TeamDirectory(c.teams).sameTeam("alice", "carol"))
    }

    func testLimitsObjectOverrides() throws {
        let c = try config("{\"limits\":{\"maxBodyBytes\":2048,\"maxRequestTargetBytes\":4096,\"maxHeaderCount\":50}}")
        XCTAssertEqual(c.maxBodyBytes, 2048)
        XCTAssertEqual(c.maxUrlBytes, 4096)
        XCTAssertEqual(c.maxHeaderCount, 50)
        XCTAssertNil(c.maxHeaderBytes)
    }
}
