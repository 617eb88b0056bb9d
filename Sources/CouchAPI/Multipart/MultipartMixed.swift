import Core

/// The `multipart/mixed` body of `open_revs` answers (spec §5.11.2), in the byte layout CouchDB emits
/// (`chttpd_db:send_docs_multipart/3`): `--B`, then per entry `\r\nContent-Type: {ct}\r\n\r\n{content}\r\n--B`,
/// then `--`.
struct MultipartMixed {
    /// 32 random hex digits.
    let boundary: String
    private(set) var body: [UInt8] = []

    init(boundary: String = RandomID.hex(16)) {
        self.boundary = boundary
        body.append(contentsOf: "--\(boundary)".utf8)
    }

    /// `multipart/mixed; boundary="{B}"`.
    var contentType: String { "multipart/mixed; boundary=\"\(boundary)\"" }

    /// A revision without attachment data: a part whose type is exactly `application/json` (the CouchDB
    /// replicator matches the bare type).
    mutating func appendDocument(_ json: [UInt8]) {
        appendPart(contentType: "application/json", json)
    }

    /// A revision with attachment data: a nested multipart/related part (`body` from `MultipartRelated`).
    mutating func appendRelated(contentType: String, _ body: [UInt8]) {
        appendPart(contentType: contentType, body)
    }

    /// A requested revision that is not there: `application/json; error="true"` with `{"missing":"{rev}"}`.
    mutating func appendMissing(_ rev: String) {
        appendPart(contentType: "application/json; error=\"true\"", JSON.object(["missing": .string(rev)]).serializedBytes())
    }

    private mutating func appendPart(contentType: String, _ content: [UInt8]) {
        body.append(contentsOf: "\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        body.append(contentsOf: content)
        body.append(contentsOf: "\r\n--\(boundary)".utf8)
    }

    /// The finished body: the close delimiter `--B--` and a trailing CRLF.
    func finished() -> [UInt8] {
        body + Array("--\r\n".utf8)
    }
}
