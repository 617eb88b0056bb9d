import XCTest
@testable import BackbeamAPI

/// Request (b) of §3.6 as each SDK puts it on the wire must verify with the same signature (§3.6, §7.3).
final class ClientEncodingTests: XCTestCase {
    private let now: Int64 = 1_397_166_331_409
    private let common = "key=foo&nonce=6303cd9bf27d27eb6343427ac42365b38b09f112&time=1397166331409&limit=10&offset=0"
    private let signature = "signature=a8nfze1Ujrh5eHB6ZuvMp4M8wrY%3D"

    private func verify(method: String = "GET", query: String, body: ParameterBody = .none,
                        file: StaticString = #filePath, line: UInt = #line) {
        do {
            let decoded = try ParameterDecoder().decode(httpMethod: method, query: query, body: body)
            XCTAssertEqual(CanonicalString.string(parameters: decoded.parameters, method: decoded.effectiveMethod,
                                                  path: "/data/item"),
                           CanonicalStringTests.canonicalB, file: file, line: line)
            XCTAssertEqual(decoded.parameters.values("params"), ["5", "3"], "BQL order preserved", file: file, line: line)
            let verified = try SignatureVerifier().verify(parameters: decoded.parameters, method: decoded.effectiveMethod,
                                                          rawPath: "/data/item", now: now,
                                                          secretForKey: { $0 == "foo" ? "bar" : nil },
                                                          nonces: NonceReplayCache())
            XCTAssertEqual(verified.pathForm, .raw, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testAndroid() {
        // `params[0]`, `+` for spaces, escaped operators, and junk `method`/`path` parameters.
        verify(query: "q=where+weight%3E%3D%3F+and+weight%3C%3D%3F+sort+by+weight&params[0]=5&params[1]=3&"
                   + common + "&method=GET&path=/data/item&" + signature)
    }

    func testIOS() {
        // AFNetworking: `params%5B%5D`, `%20` for spaces.
        verify(query: "q=where%20weight%3E%3D%3F%20and%20weight%3C%3D%3F%20sort%20by%20weight&params%5B%5D=5&params%5B%5D=3&"
                   + common + "&" + signature)
    }

    func testBrowserJavaScript() {
        // Repeated names, plus jQuery's `_` cache-buster which is never signed.
        verify(query: "q=where%20weight%3E%3D%3F%20and%20weight%3C%3D%3F%20sort%20by%20weight&params=5&params=3&"
                   + common + "&_=1397166331999&" + signature)
    }

    func testNodeQueryString() {
        // `qs` escapes the brackets: `params%5B0%5D`.
        verify(query: "q=where%20weight%3E%3D%3F%20and%20weight%3C%3D%3F%20sort%20by%20weight&params%5B1%5D=3&params%5B0%5D=5&"
                   + common + "&" + signature)
    }

    func testJSONPTunnel() {
        // JSONP: everything as GET with `_method` and `callback`, neither of which is signed.
        verify(method: "GET", query: "q=where%20weight%3E%3D%3F%20and%20weight%3C%3D%3F%20sort%20by%20weight&params=5&params=3&"
                   + common + "&_method=GET&callback=cb&" + signature)
    }
}
