import XCTest
@testable import HTTP

final class AccessLogRedactionTests: XCTestCase {
    func testCredentialValuesAreRedacted() {
        XCTAssertEqual(AccessLog.redacted("/1/datastores/list_datastores?access_token=abc&locale=en"),
                       "/1/datastores/list_datastores?access_token=***&locale=en")
        XCTAssertEqual(AccessLog.redacted("/x?oauth_token=t&oauth_signature=s%26&oauth_version=1.0"),
                       "/x?oauth_token=***&oauth_signature=***&oauth_version=1.0")
        XCTAssertEqual(AccessLog.redacted("/parse/login?username=u&password=p"), "/parse/login?***")
        XCTAssertEqual(AccessLog.redacted("/parse/verifyPassword?username=u&password=p"), "/parse/verifyPassword?***")
        XCTAssertEqual(AccessLog.redacted("/parse/users?where=%7B%7D&password=p"), "/parse/users?where=%7B%7D&password=***")
    }

    func testTargetsWithoutCredentialsAreUnchanged() {
        XCTAssertEqual(AccessLog.redacted("/health"), "/health")
        XCTAssertEqual(AccessLog.redacted("/q?a=1&b&=c"), "/q?a=1&b&=c")
    }
}
