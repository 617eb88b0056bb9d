import XCTest
import Core
@testable import App

/// The `admin` section: read once by Auth's `AdminSettings`, validated with the rest of the configuration.
final class AdminConfigTests: XCTestCase {
    private func failingKey(_ environment: [String: String]) -> String? {
        do { _ = try ConfigLoader(environment: environment).load(); return nil }
        catch let e as ConfigError { return e.key } catch { return "other: \(error)" }
    }

    func testDefaultsRefuseTheEleventhFailureWithinAMinute() throws {
        let admin = try ConfigLoader(environment: [:]).load().admin
        XCTAssertEqual(admin.name, "admin")
        XCTAssertNil(admin.password)
        XCTAssertEqual(admin.failedLogins.maxFailures, 10)
        XCTAssertEqual(admin.failedLogins.windowSeconds, 60)
    }

    func testEnvironmentSetsTheFailedLoginLimit() throws {
        let env = ["QUARTET_ADMIN_MAX_FAILED_LOGINS": "3", "QUARTET_ADMIN_FAILED_LOGIN_WINDOW_SECONDS": "600",
                   "QUARTET_ADMIN_USER": "root"]
        let admin = try ConfigLoader(environment: env).load().admin
        XCTAssertEqual(admin.failedLogins.maxFailures, 3)
        XCTAssertEqual(admin.failedLogins.windowSeconds, 600)
        XCTAssertEqual(admin.name, "root")
    }

    func testInvalidAdminValuesNameTheKey() {
        XCTAssertEqual(failingKey(["QUARTET_ADMIN_MAX_FAILED_LOGINS": "0"]), "admin.maxFailedLogins")
        XCTAssertEqual(failingKey(["QUARTET_ADMIN_MAX_FAILED_LOGINS": "many"]), "admin.maxFailedLogins")
        XCTAssertEqual(failingKey(["QUARTET_ADMIN_FAILED_LOGIN_WINDOW_SECONDS": "86401"]), "admin.failedLoginWindowSeconds")
        XCTAssertEqual(failingKey(["QUARTET_ADMIN_USER": "ad:min"]), "admin.user")
        XCTAssertEqual(failingKey(["QUARTET_ADMIN_USER": ""]), "admin.user")
        XCTAssertEqual(failingKey(["QUARTET_ADMIN_MAX_FAILED_LOGIN": "3"]), "admin.maxFailedLogin")
    }
}
