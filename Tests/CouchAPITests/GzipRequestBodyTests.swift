import XCTest
import Core
import HTTP
@testable import CouchAPI

/// gzip request bodies (spec §2.3): decoding, the limit, the decoding budget, and what is left alone.
final class GzipRequestBodyTests: XCTestCase {
    private let route = CouchRoute.database("db")

    private func request(_ body: [UInt8], encoding: String? = "gzip") throws -> HTTPRequest {
        var headers = HTTPHeaders()
        if let encoding { headers.add("Content-Encoding", encoding) }
        headers.add("Content-Length", String(body.count))
        return try HTTPRequest(method: .post, target: "/db", headers: headers, body: .bytes(body))
    }

    private func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CouchError).map { "\($0.status) \($0.reason)" } ?? "\(error)"
        }
    }

    func testSmallBodyDecodesWithoutCharge() throws {
        let budget = DecodingBudget(capacity: 1 << 20)
        let packed = try Compression.deflate(Array(#"{"a":1}"#.utf8), format: .gzip, level: 6)
        let (decoded, charge) = try GzipRequestBody.decoded(try request(packed), route: route, method: .post,
                                                            limit: 1 << 20, budget: budget)
        XCTAssertEqual(decoded.body, .bytes(Array(#"{"a":1}"#.utf8)))
        XCTAssertNil(decoded.headers["Content-Encoding"])
        XCTAssertEqual(decoded.headers["Content-Length"], "7")
        XCTAssertEqual(charge, 0)
        XCTAssertEqual(budget.bytesInUse, 0)
    }

    func testLargeBodyIsChargedToTheBudget() throws {
        let budget = DecodingBudget(capacity: 64 << 20)
        let plain = [UInt8](repeating: 0x20, count: 200_000)
        let packed = try Compression.deflate(plain, format: .gzip, level: 6)
        let (decoded, charge) = try GzipRequestBody.decoded(try request(packed), route: route, method: .post,
                                                            limit: 1 << 20, budget: budget)
        XCTAssertEqual(decoded.body.count, plain.count)
        XCTAssertEqual(charge, budget.charge(forBodyBytes: plain.count))
        XCTAssertEqual(budget.bytesInUse, charge)
        budget.release(charge)
    }

    func testNoRoomInTheBudgetIs503AndTakesNothing() throws {
        let budget = DecodingBudget(capacity: 1 << 20)
        XCTAssertTrue(budget.tryAcquire(1 << 20))
        let packed = try Compression.deflate([UInt8](repeating: 0x20, count: 200_000), format: .gzip, level: 6)
        XCTAssertEqual(reason { _ = try GzipRequestBody.decoded(try request(packed), route: route, method: .post,
                                                                 limit: 1 << 20, budget: budget) },
                       "503 The server is busy decoding other requests; retry later.")
        XCTAssertEqual(budget.bytesInUse, 1 << 20)
    }

    func testLimitsAndCorruption() throws {
        let packed = try Compression.deflate([UInt8](repeating: 0x20, count: 200_000), format: .gzip, level: 6)
        XCTAssertEqual(reason { _ = try GzipRequestBody.decoded(try request(packed), route: route, method: .post,
                                                                 limit: 199_999, budget: nil) },
                       "413 the request entity is too large")
        XCTAssertEqual(reason { _ = try GzipRequestBody.decoded(try request(packed), route: route, method: .post,
                                                                 limit: 2000, budget: nil) },
                       "413 the request entity is too large")
        XCTAssertNil(reason { _ = try GzipRequestBody.decoded(try request(packed), route: route, method: .post,
                                                               limit: 200_000, budget: nil) })
        XCTAssertEqual(reason { _ = try GzipRequestBody.decoded(try request(Array(packed.dropLast())), route: route,
                                                                 method: .post, limit: 1 << 20, budget: nil) },
                       "400 Request body is not properly gzipped.")
        XCTAssertEqual(reason { _ = try GzipRequestBody.decoded(try request(Array("{}".utf8)), route: route,
                                                                 method: .post, limit: 1 << 20, budget: nil) },
                       "400 Request body is not properly gzipped.")
    }

    func testWhatIsLeftAlone() throws {
        let packed = try Compression.deflate(Array("hello".utf8), format: .gzip, level: 6)
        // A standalone attachment PUT stores the gzip bytes (§3.5.3).
        let attachment = CouchRoute.attachment("db", documentID: PathSegment("d"), name: [PathSegment("a")])
        XCTAssertEqual(try GzipRequestBody.decoded(try request(packed), route: attachment, method: .put, limit: 100,
                                                   budget: nil).request.body, .bytes(packed))
        // Identity, other encodings (refused later, where the body is read) and empty bodies.
        XCTAssertEqual(try GzipRequestBody.decoded(try request(packed, encoding: nil), route: route, method: .post,
                                                   limit: 100, budget: nil).request.body, .bytes(packed))
        XCTAssertEqual(try GzipRequestBody.decoded(try request(packed, encoding: "br"), route: route, method: .post,
                                                   limit: 100, budget: nil).request.body, .bytes(packed))
        XCTAssertEqual(try GzipRequestBody.decoded(try request([]), route: route, method: .post, limit: 100,
                                                   budget: nil).request.body, .bytes([]))
    }
}
