import Core
import Glibc

extension HTTPResponse {
    /// Serves the file at `path` honouring a single `Range` (206 with `Content-Range`, 416 when it cannot be
    /// satisfied; several ranges are answered with the whole file) and HEAD (the server drops the body but
    /// keeps its length). A missing or unreadable file is a plain JSON 404.
    public static func file(path: String, contentType: String, request: HTTPRequest) -> HTTPResponse {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return plainError(.notFound, "not found")
        }
        return file(path: path, length: Int(info.st_size), lastModified: Int(info.st_mtim.tv_sec),
                    contentType: contentType, request: request)
    }

    /// Serves `length` bytes of the file at `path`, known to be a regular file of that length, as
    /// `file(path:contentType:request:)` does, with `Last-Modified` from `lastModified` (seconds since
    /// 1970). `honouringRange: false` answers a `Range` with the whole file (a failed `If-Range`).
    public static func file(path: String, length: Int, lastModified: Int, contentType: String, request: HTTPRequest,
                            honouringRange: Bool = true) -> HTTPResponse {
        ranged(length: length, lastModified: lastModified, contentType: contentType, request: request,
               honouringRange: honouringRange) { offset, count in .file(path: path, offset: offset, length: count) }
    }

    /// Serves `contents` held in memory exactly as `file(path:length:lastModified:...)` serves a file with the
    /// same bytes: the same status, headers and body for every `Range`.
    public static func contents(_ contents: [UInt8], lastModified: Int, contentType: String, request: HTTPRequest,
                                honouringRange: Bool = true) -> HTTPResponse {
        ranged(length: contents.count, lastModified: lastModified, contentType: contentType, request: request,
               honouringRange: honouringRange) { offset, count in
            guard offset != 0 || count != contents.count else { return .bytes(contents) }
            // `ByteRange` keeps a range inside the length; clamped all the same, as it comes from a request.
            let start = min(max(0, offset), contents.count)
            return .bytes(Array(contents[start..<(start + min(max(0, count), contents.count - start))]))
        }
    }

    /// The answer for a body of `length` bytes, `body` giving the bytes from an offset (both within it).
    private static func ranged(length: Int, lastModified: Int, contentType: String, request: HTTPRequest,
                               honouringRange: Bool, body: (_ offset: Int, _ count: Int) -> ResponseBody) -> HTTPResponse {
        var headers = HTTPHeaders()
        // Room for what callers add (validators, caching, an API's own headers): growing the list one
        // field at a time copied it three times.
        headers.reserveCapacity(10)
        headers.add("Content-Type", contentType)
        headers.add("Accept-Ranges", "bytes")
        headers.add("Last-Modified", HTTPDate.format(epochSeconds: lastModified))
        guard honouringRange, let rangeHeader = request.headers["Range"],
              request.method == .get || request.method == .head else {
            return HTTPResponse(status: .ok, headers: headers, body: body(0, length))
        }
        switch ByteRange.parse(rangeHeader, length: length) {
        case .full:
            return HTTPResponse(status: .ok, headers: headers, body: body(0, length))
        case .partial(let offset, let count):
            headers.add("Content-Range", "bytes \(offset)-\(offset + count - 1)/\(length)")
            return HTTPResponse(status: .partialContent, headers: headers, body: body(offset, count))
        case .unsatisfiable:
            headers.set("Content-Type", "application/json; charset=utf-8")
            headers.add("Content-Range", "bytes */\(length)")
            var response = plainError(.rangeNotSatisfiable, "range not satisfiable")
            response.headers = headers
            return response
        }
    }
}
