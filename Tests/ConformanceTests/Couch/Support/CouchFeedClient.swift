import Foundation
import XCTest

/// A `_changes` request kept open on its own connection, read chunk by chunk as the server writes them.
final class CouchFeedClient {
    let client: HTTPTestClient
    /// The response head (status and headers).
    let head: TestResponse

    /// Sends `GET /couch{path}` as the admin and reads the head. `timeout` bounds every read.
    init(_ server: TestServer, _ path: String, method: String = "GET", body: String? = nil,
         headers: [(String, String)] = [], password: String, timeout: TimeInterval = 10) throws {
        client = try server.connect(timeout: timeout)
        var h = headers
        h.append(("Authorization", CouchTestCase.basic("admin", password)))
        if body != nil { h.append(("Content-Type", "application/json")) }
        try client.send(HTTPTestClient.requestBytes(method, "/couch" + path, headers: h, body: Array((body ?? "").utf8)))
        head = try client.readResponse(isHead: true)
    }

    /// The next chunk of the chunked body as text; nil for the terminating chunk.
    func chunk() throws -> String? {
        let sizeLine = try client.readLine()
        guard let size = Int(sizeLine.split(separator: ";").first.map(String.init) ?? "", radix: 16) else {
            throw HTTPTestClientError.malformed(sizeLine)
        }
        if size == 0 {
            while try !client.readLine().isEmpty {}
            return nil
        }
        let bytes = try client.readExactly(size)
        _ = try client.readLine()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every chunk up to the end of the body, concatenated.
    func rest() throws -> String {
        var text = ""
        while let next = try chunk() { text += next }
        return text
    }

    /// The non-empty lines of `text` (heartbeats dropped).
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    func close() { client.close() }
}
