import XCTest
import HTTP
@testable import DatastoreAPI

/// Where a request's token is found (§4.1), on requests built in memory.
final class CredentialsTests: XCTestCase {
    private func token(authorization: String?, form: String = "") throws -> String {
        var headers: HTTPHeaders = [:]
        if let authorization { headers.add("Authorization", authorization) }
        let request = try HTTPRequest(method: .get, target: "/1/datastores/list_datastores" + (form.isEmpty ? "" : "?" + form),
                                      headers: headers)
        let params = try RequestParameters(request, maxBodyBytes: 1 << 20)
        return try Credentials.presentedToken(request, params)
    }

    func testBearerTokenWithSurroundingSpacesAndTabs() throws {
        XCTAssertEqual(try token(authorization: "Bearer abc123"), "abc123")
        XCTAssertEqual(try token(authorization: " \tBearer   abc123 \t"), "abc123")
        XCTAssertEqual(try token(authorization: "bearer abc123"), "abc123")
    }

    func testMalformedBearerIsRefused() {
        XCTAssertThrowsError(try token(authorization: "Bearer"))
        XCTAssertThrowsError(try token(authorization: "Bearer a b"))
        XCTAssertThrowsError(try token(authorization: "Basic abc"))
    }

    func testOAuthHeaderToken() throws {
        XCTAssertEqual(try token(authorization: #"OAuth oauth_version="1.0", oauth_token="t%2Fk" , oauth_signature="x""#), "t/k")
        XCTAssertThrowsError(try token(authorization: #"OAuth oauth_version="1.0""#))
    }

    func testQueryParametersWhenNoHeader() throws {
        XCTAssertEqual(try token(authorization: nil, form: "access_token=q1"), "q1")
        XCTAssertEqual(try token(authorization: nil, form: "oauth_token=q2"), "q2")
        XCTAssertThrowsError(try token(authorization: nil))
    }
}
