import XCTest
@testable import BackbeamAPI

/// Each parameter limit of §2.5 at its default bound and one past it, and each configurable.
final class ParameterLimitsTests: XCTestCase {
    private func outcome(_ query: String, body: ParameterBody = .none,
                         limits: ParameterLimits = ParameterLimits()) -> Result<DecodedParameters, ParameterError> {
        Result { () throws(ParameterError) in
            try ParameterDecoder(limits: limits).decode(httpMethod: "POST", query: query, body: body)
        }
    }

    private func error(_ query: String, body: ParameterBody = .none, limits: ParameterLimits = ParameterLimits()) -> ParameterError? {
        if case .failure(let e) = outcome(query, body: body, limits: limits) { return e }
        return nil
    }

    func testDefaults() {
        XCTAssertEqual(ParameterLimits(), ParameterLimits(maxParameters: 2_000, maxNameBytes: 1_024,
                                                          maxValueBytes: 1 << 20, maxListLength: 1_000))
    }

    func testParameterCountAcrossBothSources() {
        let pairs = { (n: Int) in (0..<n).map { "p\($0)=1" }.joined(separator: "&") }
        XCTAssertNil(error(pairs(2_000)))
        XCTAssertEqual(error(pairs(2_001)), .tooManyParameters(limit: 2_000))
        XCTAssertEqual(error(pairs(1_000), body: .urlencoded(Array(pairs(1_001).utf8))), .tooManyParameters(limit: 2_000))
        let fields = (0..<3).map { MultipartField(name: "f\($0)", value: [0x31]) }
        XCTAssertEqual(error("a=1", body: .multipart(fields), limits: ParameterLimits(maxParameters: 3)),
                       .tooManyParameters(limit: 3))
        XCTAssertNil(error("a=1&&&", body: .multipart(Array(fields.prefix(2))), limits: ParameterLimits(maxParameters: 3)),
                     "empty pairs do not count")
        XCTAssertEqual(ParameterError.tooManyParameters(limit: 2_000).backbeamError.status, .invalidParameters)
    }

    func testNameLength() {
        let name = String(repeating: "n", count: 1_024)
        XCTAssertNil(error(name + "=1"))
        XCTAssertEqual(error(name + "n=1"), .nameTooLong(limit: 1_024))
        // Measured after decoding: 1,024 escaped bytes are fine, 1,025 are not.
        XCTAssertNil(error(String(repeating: "%6E", count: 1_024) + "=1"))
        XCTAssertEqual(error(String(repeating: "%6E", count: 1_025) + "=1"), .nameTooLong(limit: 1_024))
        XCTAssertEqual(error("abcd=1", limits: ParameterLimits(maxNameBytes: 3)), .nameTooLong(limit: 3))
        XCTAssertEqual(error("", body: .multipart([MultipartField(name: "abcd", value: [])]), limits: ParameterLimits(maxNameBytes: 3)),
                       .nameTooLong(limit: 3))
    }

    func testValueLength() {
        let mib = 1 << 20
        XCTAssertNil(error("v=" + String(repeating: "x", count: mib)))
        XCTAssertEqual(error("v=" + String(repeating: "x", count: mib + 1)), .valueTooLong(name: "v", limit: mib))
        XCTAssertEqual(error("", body: .urlencoded(Array(("v=" + String(repeating: "+", count: mib + 1)).utf8))),
                       .valueTooLong(name: "v", limit: mib))
        XCTAssertEqual(error("k[0]=12345", limits: ParameterLimits(maxValueBytes: 4)), .valueTooLong(name: "k", limit: 4))
        XCTAssertEqual(error("", body: .multipart([MultipartField(name: "m", value: Array("12345".utf8))]),
                             limits: ParameterLimits(maxValueBytes: 4)), .valueTooLong(name: "m", limit: 4))
        XCTAssertNil(error("k=%31%32%33%34", limits: ParameterLimits(maxValueBytes: 4)), "escaped bytes count once decoded")
    }

    func testListLength() {
        let list = { (n: Int) in (0..<n).map { "params[]=\($0)" }.joined(separator: "&") }
        XCTAssertEqual((try? outcome(list(1_000)).get())?.parameters.values("params").count, 1_000)
        XCTAssertEqual(error(list(1_001)), .listTooLong(name: "params", limit: 1_000))
        XCTAssertEqual(error("t[1]=a&t[0]=b&t=c", limits: ParameterLimits(maxListLength: 2)), .listTooLong(name: "t", limit: 2))
    }
}
