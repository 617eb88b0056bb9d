import Core
import XCTest
@testable import BackbeamAPI

/// The error body of §2.4, the statuses of §12 and JSONP (§2.3.3).
final class ErrorBodyTests: XCTestCase {
    private func text(_ object: JSONObject) -> String { JSON.object(object).serialized() }

    func testErrorBody() {
        // §2.4: both message keys, the same text.
        let error = BackbeamError(.invalidSignature)
        XCTAssertEqual(String(decoding: error.bodyBytes, as: UTF8.self),
                       #"{"status":"InvalidSignature","errorMessage":"The signature parameter is invalid","message":"The signature parameter is invalid"}"#)
        XCTAssertEqual(error.httpStatus, 400)
        let custom = BackbeamError(.userAlreadyExists, "Taken \"x\"", httpStatus: 200)
        XCTAssertEqual(text(custom.body), #"{"status":"UserAlreadyExists","errorMessage":"Taken \"x\"","message":"Taken \"x\""}"#)
        XCTAssertEqual(custom.httpStatus, 200)
    }

    func testHTTPStatusesOfSection12() {
        let expected: [BackbeamStatus: Int] = [
            .success: 200, .pendingValidation: 200, .userAlreadyExists: 400, .missingApiKey: 400, .expiredTime: 400,
            .invalidSignature: 400, .invalidAuthCode: 400, .invalidParameters: 400, .invalidQuery: 400,
            .imageTooLarge: 400, .identityAlreadyLinked: 400, .gitHubError: 400, .invalidCredentials: 403,
            .projectNotFound: 404, .entityNotFound: 404, .objectNotFound: 404, .userNotFound: 404,
            .unknownSocialSignupProvider: 404, .notFound: 404, .methodNotAllowed: 405, .requestTooLarge: 413,
            .internalError: 500, .serviceUnavailable: 503,
        ]
        for (status, code) in expected { XCTAssertEqual(status.defaultHTTPStatus, code, status.rawValue) }
        for status in BackbeamStatus.allCases {
            XCTAssertFalse(status.defaultMessage.isEmpty)
            XCTAssertEqual(BackbeamStatus(rawValue: status.rawValue), status)
        }
        XCTAssertEqual(BackbeamStatus.allCases.count, 35, "every status of §12")
    }

    func testErrorConversions() {
        XCTAssertEqual(ParameterError.repeatedScalar(name: "key").backbeamError,
                       BackbeamError(.invalidParameters, "The parameter 'key' must have a single value"))
        XCTAssertEqual(BQLError(.syntax, "Expected x", at: 3).backbeamError,
                       BackbeamError(.invalidQuery, "Expected x at offset 3"))
        XCTAssertEqual(SignatureError.expiredTime.backbeamError.status, .expiredTime)
        let long = ParameterError.repeatedScalar(name: String(repeating: "n", count: 500)).message
        XCTAssertLessThan(long.count, 120, "client text is shortened in messages")
    }

    func testJSONP() {
        // BB-009/BB-010: `/**/cb(B);`.
        let body = BackbeamError(.invalidSignature).bodyBytes
        XCTAssertEqual(String(decoding: JSONP.wrap(body, callback: "cb"), as: UTF8.self),
                       "/**/cb(" + String(decoding: body, as: UTF8.self) + ");")
        for good in ["cb", "_x", "$", "jQuery.a.b_1$", String(repeating: "a", count: 128)] {
            XCTAssertTrue(JSONP.isValidCallback(good), good)
        }
        for bad in ["", "1a", "alert(1)//", "a b", "a;b", "a-b", "é", String(repeating: "a", count: 129), ".a"] {
            XCTAssertFalse(JSONP.isValidCallback(bad), bad)
        }
    }
}
