import XCTest
@testable import HTTP

/// The outbound client's answer parser, which is what catches an answer cut short: over TLS the end of the
/// stream is taken as an end even without close_notify, so truncation must show in the framing.
final class OutboundResponseParserTests: XCTestCase {
    func parse(_ text: String) throws -> OutboundResponse { try OutboundHTTP.parseResponse(Array(text.utf8)) }

    func testBodiesByLengthChunksAndToTheEnd() throws {
        XCTAssertEqual(try parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi").body, Array("hi".utf8))
        XCTAssertEqual(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n1\r\n!\r\n0\r\n\r\n").body,
                       Array("hi!".utf8))
        XCTAssertEqual(try parse("HTTP/1.0 404 Not Found\r\n\r\nall of it").body, Array("all of it".utf8))
        XCTAssertEqual(try parse("HTTP/1.0 404 Not Found\r\n\r\n").status, 404)
    }

    func testAnswersCutShortAreRefused() {
        for text in ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhi",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhi",
                     "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n",
                     "HTTP/1.1 200"] {
            XCTAssertThrowsError(try parse(text), text) { XCTAssertEqual($0 as? OutboundHTTPError, .malformedResponse, text) }
        }
    }
}
