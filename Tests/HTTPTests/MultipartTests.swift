import Foundation
import XCTest
@testable import HTTP

final class MultipartTests: XCTestCase {
    private var tempDirectory = ""

    override func setUpWithError() throws {
        tempDirectory = NSTemporaryDirectory() + "quartet-multipart-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tempDirectory)
    }

    private func parse(_ text: String, boundary: String = "XyZ", maxParts: Int = 1000, maxPartBytes: Int = 1 << 20,
                       threshold: Int = 1 << 16) throws -> [MultipartPart] {
        try Multipart.parse(.bytes(Array(text.utf8)), boundary: boundary, maxParts: maxParts, maxPartBytes: maxPartBytes,
                            inMemoryThreshold: threshold, tempDirectory: tempDirectory)
    }

    private func text(_ body: RequestBody) throws -> String {
        String(decoding: try body.readAll(limit: 1 << 24), as: UTF8.self)
    }

    private func spooledFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: tempDirectory)) ?? []
    }

    func testFormDataWithFilePart() throws {
        let body = "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
            + "Hello\r\nworld\r\n"
            + "--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"upload\"; filename=\"a \\\"b\\\".txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\n"
            + "file--XyZ\r\n-XyZ\r\n"
            + "--XyZ--\r\n"
        let parts = try parse(body)
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts[0].name, "title")
        XCTAssertNil(parts[0].filename)
        XCTAssertNil(parts[0].contentType)
        XCTAssertEqual(try text(parts[0].body), "Hello\r\nworld")
        XCTAssertEqual(parts[1].name, "upload")
        XCTAssertEqual(parts[1].filename, "a \"b\".txt")
        XCTAssertEqual(parts[1].contentType, "text/plain")
        XCTAssertEqual(parts[1].headers["content-disposition"]?.hasPrefix("form-data"), true)
        XCTAssertEqual(try text(parts[1].body), "file--XyZ\r\n-XyZ", "boundary-like text that is no delimiter is data")
    }

    func testExtendedFilename() throws {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=f; filename=\"plain.txt\"; "
            + "filename*=UTF-8''%E2%82%AC%20rates.txt\r\n\r\nx\r\n--XyZ--"
        let parts = try parse(body)
        XCTAssertEqual(parts.first?.name, "f")
        XCTAssertEqual(parts.first?.filename, "€ rates.txt")
        let latin = try parse("--XyZ\r\nContent-Disposition: attachment; filename*=iso-8859-1'en'caf%E9\r\n\r\nx\r\n--XyZ--")
        XCTAssertEqual(latin.first?.filename, "café")
    }

    /// A NUL may arrive in a file name (clients copy local names verbatim; its consumer cleans it), never in a
    /// field name or any other part header.
    func testNULOnlyInTheFileName() throws {
        let named = try parse("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\u{0}b\"\r\n\r\nx\r\n--XyZ--")
        XCTAssertEqual(named.first?.name, "file")
        XCTAssertEqual(named.first?.filename, "a\u{0}b")
        for header in ["Content-Disposition: form-data; name=\"fi\u{0}le\"; filename=\"a\"",
                       "Content-Disposition: form-data; name=\"file\"\r\nContent-Type: text/pl\u{0}ain",
                       "X-Note: a\u{0}b\r\nContent-Disposition: form-data; name=\"file\""] {
            XCTAssertThrowsError(try parse("--XyZ\r\n\(header)\r\n\r\nx\r\n--XyZ--"), header) { error in
                guard case .malformed = error as? MultipartError else { return XCTFail("\(error)") }
            }
        }
    }

    func testRelatedWithPreambleAndNoDisposition() throws {
        let body = "preamble text\r\n--abc\r\nContent-Type: application/json\r\n\r\n{\"_id\":\"doc\"}\r\n"
            + "--abc\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\n\u{1}\u{2}\u{3}\u{4}\r\n--abc--\r\nepilogue"
        let parts = try parse(body, boundary: "abc")
        XCTAssertEqual(parts.map(\.contentType), ["application/json", "image/png"])
        XCTAssertNil(parts[0].name)
        XCTAssertEqual(try text(parts[0].body), "{\"_id\":\"doc\"}")
        XCTAssertEqual(parts[1].body.count, 4)
    }

    func testMixedWithEmptyPartAndPadding() throws {
        let body = "--b1  \r\n\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nsecond\r\n--b1--"
        let parts = try parse(body, boundary: "b1")
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts[0].body.count, 0)
        XCTAssertTrue(parts[0].headers.isEmpty)
        XCTAssertEqual(try text(parts[1].body), "second")
    }

    func testLargePartIsSpooledToDisk() throws {
        let content = String(repeating: "0123456789", count: 1000)
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"small\"\r\n\r\nsmall\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n\r\n\(content)\r\n--XyZ--\r\n"
        let parts = try parse(body, threshold: 100)
        XCTAssertEqual(parts[0].body, .bytes(Array("small".utf8)))
        guard case .file(let path, let length) = parts[1].body else { return XCTFail("big part kept in memory") }
        XCTAssertEqual(length, 10_000)
        XCTAssertTrue(path.hasPrefix(tempDirectory))
        XCTAssertEqual(try text(parts[1].body), content)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        Multipart.removeTemporaryFiles(parts)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testFileBodyIsReadInPieces() throws {
        // Parts span several 64 KiB reads, so delimiters land across read boundaries.
        var body = ""
        var expected: [String] = []
        for index in 0..<6 {
            let content = String(repeating: Character(UnicodeScalar(UInt8(97 + index))), count: 30_000 + index * 7)
            expected.append(content)
            body += "--XyZ\r\nContent-Disposition: form-data; name=\"p\(index)\"\r\n\r\n\(content)\r\n"
        }
        body += "--XyZ--\r\n"
        let writer = try TempFileWriter(directory: tempDirectory)
        try writer.write(Array(body.utf8))
        let fileBody = writer.finish()
        let parts = try Multipart.parse(fileBody, boundary: "XyZ", maxPartBytes: 1 << 20, inMemoryThreshold: 40_000,
                                        tempDirectory: tempDirectory)
        XCTAssertEqual(try parts.map { try text($0.body) }, expected)
        XCTAssertEqual(parts.map(\.name), (0..<6).map { "p\($0)" })
        Multipart.removeTemporaryFiles(parts)
        fileBody.removeTemporaryFile()
        XCTAssertTrue(spooledFiles().isEmpty)
    }

    func testEverySplitPointGivesTheSameParts() throws {
        let body = Array(("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfirst\r\r\n\r\n"
            + "--XyZ\r\nContent-Type: text/plain\r\n\r\nsecond--XyZ\r\n--XyZ--").utf8)
        for split in 0...body.count {
            var scanner = MultipartScanner(boundary: "XyZ", maxParts: 10, maxPartBytes: 1000, inMemoryThreshold: 1000,
                                           tempDirectory: tempDirectory)
            try body.withUnsafeBytes { raw in
                try scanner.feed(UnsafeRawBufferPointer(rebasing: raw[0..<split]))
                try scanner.feed(UnsafeRawBufferPointer(rebasing: raw[split...]))
            }
            let parts = try scanner.finish()
            XCTAssertEqual(parts.map(\.body), [.bytes(Array("first\r\r\n".utf8)), .bytes(Array("second--XyZ".utf8))],
                           "split at \(split)")
        }
    }

    func testBoundaryFromContentType() {
        XCTAssertEqual(Multipart.boundary(fromContentType: "multipart/form-data; boundary=----WebKit123"), "----WebKit123")
        XCTAssertEqual(Multipart.boundary(fromContentType: "Multipart/Related;type=\"application/json\"; BOUNDARY=\"a b;c\""), "a b;c")
        XCTAssertNil(Multipart.boundary(fromContentType: "multipart/form-data"))
        XCTAssertNil(Multipart.boundary(fromContentType: "multipart/form-data; boundary="))
        XCTAssertNil(Multipart.boundary(fromContentType: "multipart/form-data; boundary=\"unterminated"))
        XCTAssertNil(Multipart.boundary(fromContentType: "multipart/mixed; boundary=" + String(repeating: "x", count: 71)))
        XCTAssertNotNil(Multipart.boundary(fromContentType: "multipart/mixed; boundary=" + String(repeating: "x", count: 70)))
        XCTAssertNil(Multipart.boundary(fromContentType: "application/json; boundary=abc"))
    }

    func testMalformedBoundary() {
        XCTAssertThrowsError(try parse("--\r\n\r\nx\r\n----", boundary: "")) { XCTAssertEqual($0 as? MultipartError, .missingBoundary) }
        XCTAssertThrowsError(try parse("--XyZ\r\n\r\nx\r\n--XyZ--", boundary: "Xy\r\nZ")) {
            XCTAssertEqual($0 as? MultipartError, .missingBoundary)
        }
        // A delimiter followed by anything but padding and CRLF (or "--").
        XCTAssertThrowsError(try parse("--XyZjunk\r\n\r\nx\r\n--XyZ--")) {
            XCTAssertEqual($0 as? MultipartError, .malformed("invalid boundary line"))
        }
        XCTAssertThrowsError(try parse("--XyZ\r\nNo colon here\r\n\r\nx\r\n--XyZ--")) {
            XCTAssertEqual($0 as? MultipartError, .malformed("invalid part header"))
        }
        XCTAssertThrowsError(try parse("no delimiter at all", boundary: "XyZ")) {
            XCTAssertEqual($0 as? MultipartError, .malformed("boundary not found"))
        }
    }

    func testMissingFinalBoundary() {
        for body in ["--XyZ\r\n\r\ncontent", "--XyZ\r\n\r\ncontent\r\n--XyZ\r\n", "--XyZ\r\nContent-Type: a", "--XyZ"] {
            XCTAssertThrowsError(try parse(body), body.debugDescription) {
                XCTAssertEqual($0 as? MultipartError, .malformed("missing final boundary"))
            }
        }
    }

    func testLimitsAndCleanup() {
        let three = "--XyZ\r\n\r\na\r\n--XyZ\r\n\r\nb\r\n--XyZ\r\n\r\nc\r\n--XyZ--"
        XCTAssertEqual(try parse(three, maxParts: 3).count, 3)
        XCTAssertThrowsError(try parse(three, maxParts: 2)) { XCTAssertEqual($0 as? MultipartError, .tooManyParts) }
        let big = "--XyZ\r\n\r\n" + String(repeating: "x", count: 500) + "\r\n--XyZ--"
        XCTAssertEqual(try parse(big, maxPartBytes: 500).first?.body.count, 500)
        XCTAssertThrowsError(try parse(big, maxPartBytes: 499, threshold: 10)) {
            XCTAssertEqual($0 as? MultipartError, .partTooLarge)
        }
        // A spooled part of a body that then fails leaves no file behind.
        XCTAssertThrowsError(try parse("--XyZ\r\n\r\n" + String(repeating: "y", count: 300) + "\r\n--XyZ\r\n\r\nz", threshold: 10))
        XCTAssertTrue(spooledFiles().isEmpty)
        let headerBlock = "--XyZ\r\nX: " + String(repeating: "h", count: 20_000) + "\r\n\r\nx\r\n--XyZ--"
        XCTAssertThrowsError(try parse(headerBlock)) {
            XCTAssertEqual($0 as? MultipartError, .malformed("part headers too large"))
        }
    }
}

/// `Multipart.stream` hands a consumer each part's headers, content pieces and end, and stops when it refuses.
final class MultipartStreamTests: XCTestCase {
    private struct Recorder: MultipartConsumer {
        var events: [String] = []
        var refuseAfterBytes = Int.max
        var bytes = 0

        mutating func beginPart(_ headers: MultipartPartHeaders) throws(MultipartError) {
            events.append("begin \(headers.filename ?? "-") \(headers.contentType ?? "-")")
        }

        mutating func partContent(_ chunk: UnsafeRawBufferPointer) throws(MultipartError) {
            bytes += chunk.count
            guard bytes <= refuseAfterBytes else { throw .rejected }
            if case let last? = events.last, last.hasPrefix("data ") {
                events[events.count - 1] = last + String(decoding: chunk, as: UTF8.self)
            } else {
                events.append("data " + String(decoding: chunk, as: UTF8.self))
            }
        }

        mutating func endPart() throws(MultipartError) { events.append("end") }
    }

    private let body = Array(("--B\r\nContent-Type: application/json\r\n\r\n{}\r\n--B\r\n"
        + "Content-Disposition: attachment; filename=\"a\"\r\n\r\n" + String(repeating: "x", count: 70_000) + "\r\n--B\r\n\r\n\r\n--B--").utf8)

    func testEventsInOrderAcrossPieces() throws {
        var recorder = Recorder()
        try Multipart.stream(.bytes(body), boundary: "B", maxParts: 10, into: &recorder)
        XCTAssertEqual(recorder.events, ["begin - application/json", "data {}", "end", "begin a -",
                                         "data " + String(repeating: "x", count: 70_000), "end", "begin - -", "end"])
    }

    func testARefusalStopsTheScanAndTheLimitsHold() {
        var recorder = Recorder(refuseAfterBytes: 100)
        XCTAssertThrowsError(try Multipart.stream(.bytes(body), boundary: "B", maxParts: 10, into: &recorder)) {
            XCTAssertEqual($0 as? MultipartError, .rejected)
        }
        XCTAssertFalse(recorder.events.contains("begin - -"), "nothing after the refusal")
        var counted = Recorder()
        XCTAssertThrowsError(try Multipart.stream(.bytes(body), boundary: "B", maxParts: 2, into: &counted)) {
            XCTAssertEqual($0 as? MultipartError, .tooManyParts)
        }
        XCTAssertThrowsError(try Multipart.stream(.bytes(body), boundary: "", maxParts: 2, into: &counted)) {
            XCTAssertEqual($0 as? MultipartError, .missingBoundary)
        }
    }
}
