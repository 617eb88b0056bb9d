import XCTest
import Core
@testable import ParseAPI
import HTTP

final class ConfigTests: XCTestCase {
    func testDefaults() throws {
        let c = try ParseConfig(section: [:])
        XCTAssertEqual(c.mountPath, "/parse")
        XCTAssertEqual(c.maxLimit, 10_000)
        XCTAssertEqual(c.defaultLimit, 100)
        XCTAssertTrue(IPRange.any(c.masterKeyIps, contains: "127.0.0.1"))
        XCTAssertTrue(IPRange.any(c.masterKeyIps, contains: "::1"))
        XCTAssertFalse(IPRange.any(c.masterKeyIps, contains: "172.17.0.1"))
        XCTAssertEqual(c.rateLimits.count, 5)
    }

    func testEnvironmentForms() throws {
        let c = try ParseConfig(section: ["masterKeyIps": "127.0.0.1, 172.16.0.0/12", "allowCustomObjectId": "true",
                                          "maxUploadSize": "1048576", "appId": 12345, "restApiKey": "rk",
                                          "publicServerUrl": "https://api.example.com/parse/"])
        XCTAssertTrue(IPRange.any(c.masterKeyIps, contains: "172.20.1.1"))
        XCTAssertTrue(c.allowCustomObjectId)
        XCTAssertEqual(c.maxUploadSize, 1 << 20)
        XCTAssertEqual(c.appId, "12345")
        XCTAssertEqual(c.restAPIKey, "rk")
        XCTAssertEqual(c.publicServerURL, "https://api.example.com/parse")
    }

    func testInvalidValuesNameTheirKey() {
        let cases: [(JSONObject, String)] = [
            (["mountPath": "parse"], "parse.mountPath"), (["mountPath": "/parse/"], "parse.mountPath"),
            (["masterKeyIps": ["nope"]], "parse.masterKeyIps"), (["maxLimit": 0], "parse.maxLimit"),
            (["masterKey": ["x"]], "parse.masterKey"), (["enforcePrivateUsers": "maybe"], "parse.enforcePrivateUsers"),
            (["fileUpload": ["enableForPublic": 3]], "parse.fileUpload.enableForPublic"),
            (["passwordPolicy": ["validatorPattern": "(a)\\1"]], "parse.passwordPolicy.validatorPattern"),
            (["rateLimit": [["requestPath": "/x"]]], "parse.rateLimit"),
            (["publicServerURL": "ftp://x"], "parse.publicServerURL"),
        ]
        for (section, key) in cases {
            XCTAssertThrowsError(try ParseConfig(section: section), key) { XCTAssertEqual(($0 as? ConfigError)?.key, key) }
        }
    }
}
