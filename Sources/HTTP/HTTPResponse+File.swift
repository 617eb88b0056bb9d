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
        var headers = HTTPHeaders()
        headers.add("Content-Type", contentType)
        headers.add("Accept-Ranges", "bytes")
        headers.add("Last-Modified", HTTPDate.format(epochSeconds: lastModified))
        guard honouringRange, let rangeHeader = request.headers["Range"],
              request.method == .get || request.method == .head else {
            return HTTPResponse(status: .ok, headers: headers, body: .file(path: path, offset: 0, length: length))
        }
        switch ByteRange.parse(rangeHeader, length: length) {
        case .full:
            return HTTPResponse(status: .ok, headers: headers, body: .file(path: path, offset: 0, length: length))
        case .partial(let offset, let count):
            headers.add("Content-Range", "bytes \(offset)-\(offset + count - 1)/\(length)")
            return HTTPResponse(status: .partialContent, headers: headers,
                                body: .file(path: path, offset: offset, length: count))
        case .unsatisfiable:
            headers.set("Content-Type", "application/json; charset=utf-8")
            headers.add("Content-Range", "bytes */\(length)")
            var response = plainError(.rangeNotSatisfiable, "range not satisfiable")
            response.headers = headers
            return response
        }
    }
}
