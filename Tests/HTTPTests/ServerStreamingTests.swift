import Foundation
import Glibc
import XCTest
@testable import HTTP

final class ServerStreamingTests: XCTestCase {
    func testStreamingResponseIsChunkedAndWrittenFromAnotherThread() throws {
        let server = try TestServer { router in
            router.group("").get("/feed") { _ in
                .response(HTTPResponse(status: .ok, body: .stream { writer in
                    Thread.detachNewThread {
                        for index in 0..<3 {
                            writer.write(Array("line \(index)\n".utf8))
                            usleep(10_000)
                        }
                        writer.finish()
                    }
                }))
            }
            router.group("").get("/after") { _ in .response(.text(.ok, "after")) }
        }
        let client = try server.client()
        let response = try client.request("GET", "/feed")
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(response.text, "line 0\nline 1\nline 2\n")
        XCTAssertEqual(try client.request("GET", "/after").text, "after")
    }

    func testStreamWriterReportsTheClientGone() throws {
        let closed = LockedBox(false)
        let writerBox = LockedBox<StreamWriter?>(nil)
        let server = try TestServer { router in
            router.group("").get("/feed") { _ in
                .response(HTTPResponse(status: .ok, body: .stream { writer in
                    writer.onClose { closed.set(true) }
                    writer.write(Array("hello\n".utf8))
                    writerBox.set(writer)
                }))
            }
        }
        do {
            let client = try server.client()
            try client.send("GET /feed HTTP/1.1\r\nHost: a\r\n\r\n")
            XCTAssertTrue(eventually { writerBox.get() != nil })
            _ = try client.readResponse(head: true)
        }
        XCTAssertTrue(eventually { closed.get() })
        XCTAssertEqual(writerBox.get()?.write([1]), false)
    }

    func testHTTP10StreamIsCloseDelimited() throws {
        let server = try TestServer { router in
            router.group("").get("/feed") { _ in
                .response(HTTPResponse(status: .ok, body: .stream { writer in
                    writer.write(Array("abc".utf8))
                    writer.finish()
                }))
            }
        }
        let client = try server.client()
        try client.send("GET /feed HTTP/1.0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertNil(response.header("Transfer-Encoding"))
        XCTAssertEqual(response.text, "abc")
    }

    func testFileResponseHonoursRangeAndHead() throws {
        let path = NSTemporaryDirectory() + "range-\(UUID().uuidString).txt"
        let content = (0..<2000).map { String($0 % 10) }.joined()
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let server = try TestServer { router in
            router.group("").get("/file") { request in
                .response(.file(path: path, contentType: "text/plain", request: request))
            }
        }
        let client = try server.client()
        let full = try client.request("GET", "/file")
        XCTAssertEqual(full.status, 200)
        XCTAssertEqual(full.text, content)
        XCTAssertEqual(full.header("Accept-Ranges"), "bytes")
        let partial = try client.request("GET", "/file", headers: ["Range": "bytes=10-19"])
        XCTAssertEqual(partial.status, 206)
        XCTAssertEqual(partial.text, "0123456789")
        XCTAssertEqual(partial.header("Content-Range"), "bytes 10-19/2000")
        let suffix = try client.request("GET", "/file", headers: ["Range": "bytes=-5"])
        XCTAssertEqual(suffix.text, "56789")
        let bad = try client.request("GET", "/file", headers: ["Range": "bytes=5000-6000"])
        XCTAssertEqual(bad.status, 416)
        XCTAssertEqual(bad.header("Content-Range"), "bytes */2000")
        let head = try client.request("HEAD", "/file")
        XCTAssertEqual(head.header("Content-Length"), "2000")
        XCTAssertEqual(try client.request("GET", "/file", headers: ["Range": "bytes=0-0"]).text, "0")
    }

    func testLargeFileIsSentCompletely() throws {
        let path = NSTemporaryDirectory() + "large-\(UUID().uuidString).bin"
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { unlink(path) }
        let server = try TestServer { router in
            router.group("").get("/big") { request in
                .response(.file(path: path, contentType: "application/octet-stream", request: request))
            }
        }
        let client = try server.client()
        let response = try client.request("GET", "/big")
        XCTAssertEqual(response.body.count, bytes.count)
        XCTAssertTrue(response.body == bytes)
    }
}
