import XCTest
import Core

/// `/files` (spec §13).
final class ParseFileTests: ParseConformanceCase {
    func upload(_ name: String, _ body: String, token: String?, contentType: String? = nil, master: Bool = false) throws -> TestResponse {
        var h = ParseServer.headers(master: master, session: token)
        if let contentType { h.append(("Content-Type", contentType)) }
        return try parse.server.request("POST", "/parse/files/\(name)", headers: h, body: body)
    }

    func userToken() throws -> String { try parse.signUp("uploader").1 }

    func path(_ url: String) -> String { URL(string: url).map { $0.path.isEmpty ? "/" : $0.absoluteString.replacingOccurrences(of: "http://\($0.host ?? ""):\($0.port ?? 0)", with: "") } ?? url }

    func test_PA_159_upload() throws {
        let r = try upload("hello.txt", "hello world", token: try userToken())
        XCTAssertEqual(r.status, 201, r.text)
        let j = try JSONParser.parse(r.body)
        let name = j["name"]?.stringValue ?? ""
        XCTAssertNotNil(name.range(of: #"^[0-9a-f]{32}_hello\.txt$"#, options: .regularExpression))
        let url = j["url"]?.stringValue ?? ""
        XCTAssertTrue(url.hasSuffix("/parse/files/\(ParseServer.appId)/\(name)"))
        XCTAssertEqual(r.header("Location"), url)
    }

    func test_PA_160_download() throws {
        let j = try JSONParser.parse(try upload("hello.txt", "hello world", token: try userToken()).body)
        let p = path(j["url"]?.stringValue ?? "")
        let r = try parse.server.request("GET", p)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "hello world")
        XCTAssertEqual(r.header("Content-Type"), "text/plain")
        XCTAssertEqual(r.header("X-Content-Type-Options"), "nosniff")
        XCTAssertEqual(r.header("Accept-Ranges"), "bytes")
        let c = try parse.server.connect()
        defer { c.close() }
        try c.send("HEAD \(p) HTTP/1.1\r\nHost: x\r\n\r\n")
        let h = try c.readResponse(isHead: true)
        XCTAssertEqual(h.status, 200)
        XCTAssertEqual(h.header("Content-Type"), "text/plain")
        XCTAssertTrue(h.body.isEmpty)
    }

    func test_PA_161_upload_permissions() throws {
        let pub = try upload("a.txt", "x", token: nil)
        XCTAssertEqual(pub.status, 400)
        XCTAssertEqual(pub.text, #"{"code":130,"error":"File upload by public is disabled."}"#)
        let anon = try parse.expect(201, "POST", "/parse/users", body: #"{"authData":{"anonymous":{"id":"anon-1"}}}"#)
        let a = try upload("a.txt", "x", token: anon["sessionToken"]?.stringValue)
        XCTAssertEqual(a.text, #"{"code":130,"error":"File upload by anonymous user is disabled."}"#)
        XCTAssertEqual(try upload("a.txt", "x", token: nil, master: true).status, 201)
    }

    func test_PA_162_empty_and_unnamed() throws {
        let t = try userToken()
        XCTAssertEqual(try upload("a.txt", "", token: t).text, #"{"code":130,"error":"Invalid file upload."}"#)
        for p in ["/parse/files/", "/parse/files"] {
            let r = try parse.server.request("POST", p, headers: ParseServer.headers(session: t), body: "x")
            XCTAssertEqual(r.status, 400)
            XCTAssertEqual(r.text, #"{"code":122,"error":"Filename not provided."}"#)
        }
    }

    func test_PA_163_unsafe_names() throws {
        let t = try userToken()
        for name in ["..%2F..%2Fetc%2Fpasswd", ".htaccess", "a%5Cb", "r%C3%A9sum%C3%A9.txt", "x%00.png", "a%E2%80%AEtxt.exe"] {
            let r = try upload(name, "data", token: t)
            XCTAssertEqual(r.status, 400, name)
            // A NUL escape does not decode, so the HTTP layer refuses the path before any route sees the name;
            // the answer is still a Parse error (107), and nothing is stored.
            if name.contains("%00") {
                XCTAssertEqual((try JSONParser.parse(r.body))["code"], 107)
                continue
            }
            XCTAssertEqual(r.text, #"{"code":122,"error":"Filename contains invalid characters."}"#, name)
        }
        XCTAssertEqual(try upload(String(repeating: "a", count: 129), "data", token: t).text, #"{"code":122,"error":"Filename too long."}"#)
    }

    func test_PA_164_blocked_extensions() throws {
        let t = try userToken()
        for (name, ext) in [("page.html", "html"), ("PAGE.HTM", "htm"), ("x.svg", "svg"), ("x.xhtml", "xhtml"), ("x.xml", "xml"), ("x.svgz", "svgz")] {
            XCTAssertEqual(try upload(name, "<x/>", token: t).text, #"{"code":130,"error":"File upload of extension \#(ext) is disabled."}"#)
        }
        XCTAssertEqual((try JSONParser.parse(try upload("file.html.", "x", token: t).body))["code"], 122)
        XCTAssertEqual((try JSONParser.parse(try upload("noext", "<b>", token: t, contentType: "text/html").body))["code"], 130)
        let m = try upload("page.html", "<b>", token: nil, master: true)
        XCTAssertEqual(m.status, 201)
        let d = try parse.server.request("GET", path((try JSONParser.parse(m.body))["url"]?.stringValue ?? ""))
        XCTAssertEqual(d.header("Content-Disposition"), "attachment")
    }

    func test_PA_165_extension_from_content_type() throws {
        let t = try userToken()
        let png = try JSONParser.parse(try upload("photo", "PNGDATA", token: t, contentType: "image/png").body)
        XCTAssertTrue(png["name"]?.stringValue?.hasSuffix("_photo.png") ?? false)
        let blob = try JSONParser.parse(try upload("blob", "raw", token: t).body)
        let d = try parse.server.request("GET", path(blob["url"]?.stringValue ?? ""))
        XCTAssertEqual(d.header("Content-Type"), "application/octet-stream")
    }

    func test_PA_166_ranges() throws {
        let j = try JSONParser.parse(try upload("hello.txt", "hello world", token: try userToken()).body)
        let p = path(j["url"]?.stringValue ?? "")
        let first = try parse.server.request("GET", p, headers: [("Range", "bytes=0-4")])
        XCTAssertEqual(first.status, 206)
        XCTAssertEqual(first.text, "hello")
        XCTAssertEqual(first.header("Content-Range"), "bytes 0-4/11")
        for range in ["bytes=-5", "bytes=6-"] {
            let r = try parse.server.request("GET", p, headers: [("Range", range)])
            XCTAssertEqual(r.status, 206)
            XCTAssertEqual(r.text, "world")
        }
        let bad = try parse.server.request("GET", p, headers: [("Range", "bytes=20-30")])
        XCTAssertEqual(bad.status, 416)
        XCTAssertEqual(bad.header("Content-Range"), "bytes */11")
        let many = (0..<1000).map { "\($0)-\($0)" }.joined(separator: ",")
        for range in ["bytes=999999-0", "bytes=abc", "bytes=" + many] {
            let r = try parse.server.request("GET", p, headers: [("Range", range)])
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(r.text, "hello world")
        }
    }

    func test_PA_167_download_errors() throws {
        let j = try JSONParser.parse(try upload("hello.txt", "hi", token: try userToken()).body)
        let name = j["name"]?.stringValue ?? ""
        let wrong = try parse.server.request("GET", "/parse/files/wrongApp/\(name)")
        XCTAssertEqual(wrong.status, 403)
        XCTAssertEqual(wrong.text, #"{"code":119,"error":"Invalid application ID."}"#)
        let missing = try parse.server.request("GET", "/parse/files/\(ParseServer.appId)/nope.txt")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.header("Content-Type")?.hasPrefix("text/plain") ?? false)
        XCTAssertEqual(missing.text, "File not found.")
    }

    func test_PA_168_delete_file() throws {
        let j = try JSONParser.parse(try upload("hello.txt", "hi", token: try userToken()).body)
        let name = j["name"]?.stringValue ?? ""
        let denied = try parse.send("DELETE", "/parse/files/\(name)")
        XCTAssertEqual(denied.status, 403)
        XCTAssertEqual(denied.text, #"{"error":"unauthorized: master key is required"}"#)
        try parse.expect(200, "DELETE", "/parse/files/\(name)", headers: ParseServer.headers(master: true))
        XCTAssertEqual(try parse.server.request("GET", "/parse/files/\(ParseServer.appId)/\(name)").status, 404)
        XCTAssertEqual(try parse.expect(400, "DELETE", "/parse/files/\(name)", headers: ParseServer.headers(master: true)),
                       ["code": 153, "error": "Could not delete file."])
    }

    func test_PA_170_js_envelope_upload() throws {
        let t = try userToken()
        let r = try parse.server.request("POST", "/parse/files/a.txt", headers: [("Content-Type", "text/plain")],
                                         body: #"{"base64":"aGk=","_ApplicationId":"\#(ParseServer.appId)","_ContentType":"text/plain","_SessionToken":"\#(t)"}"#)
        XCTAssertEqual(r.status, 201, r.text)
        let d = try parse.server.request("GET", path((try JSONParser.parse(r.body))["url"]?.stringValue ?? ""))
        XCTAssertEqual(d.text, "hi")
    }

    func test_PA_171_metadata_and_spaces() throws {
        let t = try userToken()
        let j = try JSONParser.parse(try upload("my%20file.txt", "spaced", token: t).body)
        let name = j["name"]?.stringValue ?? ""
        XCTAssertTrue(j["url"]?.stringValue?.hasSuffix("_my%20file.txt") ?? false)
        XCTAssertEqual(try parse.server.request("GET", path(j["url"]?.stringValue ?? "")).text, "spaced")
        let meta = try parse.server.request("GET", "/parse/files/\(ParseServer.appId)/metadata/\(name.replacingOccurrences(of: " ", with: "%20"))")
        XCTAssertEqual(meta.status, 200)
        XCTAssertEqual(meta.text, "{}")
        XCTAssertEqual(try parse.server.request("GET", "/parse/files/\(ParseServer.appId)/metadata/unknown.txt").text, "{}")
    }
}

/// Upload size limits need a smaller `maxUploadSize`.
final class ParseUploadLimitTests: ParseConformanceCase {
    override var environment: [String: String] { ["QUARTET_PARSE_MAX_UPLOAD_SIZE": "1048576"] }

    func test_PA_015_body_too_large() throws {
        let big = "{\"a\":\"" + String(repeating: "x", count: 2 << 20) + "\"}"
        let r = try parse.send("POST", "/parse/classes/Big", body: big)
        XCTAssertEqual(r.status, 413)
        XCTAssertEqual(r.text, #"{"error":"request entity too large"}"#)
        XCTAssertEqual(try parse.masterCount("Big"), 0)
    }

    func test_PA_169_upload_too_large() throws {
        let (_, t) = try parse.signUp("u")
        let r = try parse.server.request("POST", "/parse/files/big.txt", headers: ParseServer.headers(session: t),
                                         body: [UInt8](repeating: 65, count: 2 << 20))
        XCTAssertEqual(r.status, 413)
        XCTAssertEqual(r.text, #"{"error":"request entity too large"}"#)
        let c = try parse.server.connect()
        defer { c.close() }
        var head = "POST /parse/files/big.txt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
        for (k, v) in ParseServer.headers(session: t) { head += "\(k): \(v)\r\n" }
        try c.send(head + "\r\n")
        let chunk = String(repeating: "B", count: 65_536)
        for _ in 0..<32 { try? c.send(String(65_536, radix: 16) + "\r\n" + chunk + "\r\n") }
        try? c.send("0\r\n\r\n")
        let chunked = try c.readResponse()
        XCTAssertEqual(chunked.status, 413)
        XCTAssertEqual(chunked.text, #"{"error":"request entity too large"}"#)
    }
}
