#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTP
import Storage

/// Answers GET and HEAD for stored files: `ETag` and `Last-Modified`, `Cache-Control`, conditional GET
/// (`If-None-Match`, `If-Modified-Since` -> 304) and a single `Range` (206 with `Content-Range`; 416 with
/// `Content-Range: bytes */size` when it starts past the end; several ranges, or an `If-Range` naming an
/// older version, get the whole file with 200). Bodies are sent from the file, never loaded.
///
/// A missing file gives nil: each API answers 404 in its own format. So do other API-specific headers
/// (`Content-Disposition`, `X-Content-Type-Options`, ...), which the caller adds to the response.
public enum FileServing {
    /// Serves the blob `hash` of `blobs`, with its quoted hash as a strong `ETag` (content-addressed, so
    /// equal tags mean equal bytes) and its file's modification time as `Last-Modified` unless
    /// `lastModified` (seconds since 1970) is given. Nil when the blob is not in the store.
    public static func respond(blob hash: String, in blobs: BlobStore, request: HTTPRequest, contentType: String,
                               cacheControl: String? = nil, lastModified: Int? = nil) -> HTTPResponse? {
        guard let path = blobs.path(for: hash) else { return nil }
        return respond(file: path, etag: Validators.strongETag(hash), request: request, contentType: contentType,
                       cacheControl: cacheControl, lastModified: lastModified)
    }

    /// Serves the regular file at `path`, with `etag` (quotes included) when given and `Last-Modified`
    /// from `lastModified` or else the file's modification time. Nil when there is no such file.
    public static func respond(file path: String, etag: String?, request: HTTPRequest, contentType: String,
                               cacheControl: String? = nil, lastModified: Int? = nil) -> HTTPResponse? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let validators = Validators(etag: etag, lastModified: lastModified ?? Int(info.st_mtim.tv_sec))
        return respond(validators, request: request, cacheControl: cacheControl) { honouringRange in
            HTTPResponse.file(path: path, length: Int(info.st_size), lastModified: validators.lastModified ?? 0,
                              contentType: contentType, request: request, honouringRange: honouringRange)
        }
    }

    /// Serves `contents` held in memory (a small file's bytes) with the same status, headers and body that
    /// `respond(file:...)` gives for a file with those bytes and that `lastModified`.
    public static func respond(contents: [UInt8], etag: String?, request: HTTPRequest, contentType: String,
                               cacheControl: String? = nil, lastModified: Int) -> HTTPResponse {
        let validators = Validators(etag: etag, lastModified: lastModified)
        return respond(validators, request: request, cacheControl: cacheControl) { honouringRange in
            HTTPResponse.contents(contents, lastModified: validators.lastModified ?? 0, contentType: contentType,
                                  request: request, honouringRange: honouringRange)
        }
    }

    /// 304 when the validators say so, else the body that `full` makes (told whether a `Range` applies).
    private static func respond(_ validators: Validators, request: HTTPRequest, cacheControl: String?,
                                full: (_ honouringRange: Bool) -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        if validators.isNotModified(request) {
            response = HTTPResponse(status: .notModified)
            validators.addHeaders(to: &response.headers, notModified: true)
        } else {
            response = full(validators.rangeApplies(request))
            if response.headers.contains("Last-Modified") {
                // `full` (`HTTPResponse.file` / `.contents`) wrote `Last-Modified` once, from these validators'
                // time: setting it again would format the same date to the same text in the same place.
                if let etag = validators.etag { response.headers.set("ETag", etag) }
            } else {
                validators.addHeaders(to: &response.headers)
            }
        }
        if let cacheControl { response.headers.set("Cache-Control", cacheControl) }
        return response
    }
}
