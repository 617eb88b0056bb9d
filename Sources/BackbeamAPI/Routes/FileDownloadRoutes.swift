import Files
import HTTP

/// `GET|HEAD /data/file/download/:id[/:version]` (§5.3.3): unsigned downloads of a file's current content,
/// or of a resized variant of it (§5.3.5), with validators, Range and long-lived caching headers.
enum FileDownloadRoutes {
    /// One year, for a URL naming the current version (a new version means a new URL).
    static let currentVersionCache = "public, max-age=31556926"
    /// One week, for URLs without a version or naming another one.
    static let otherVersionCache = "public, max-age=604800"

    static func register(on table: EndpointTable, _ service: ServiceContext, files: FileServices) {
        // Downloads are never signed: leftover key, signature, method and path parameters are ignored (§3.5).
        // A variant held in memory is answered on the I/O thread (`attemptDownload`).
        let latest = EndpointOptions(signed: false, attempt: { call in attemptDownload(call, version: nil, files) })
        table.on("GET", "/data/file/download/:id", latest) { call in
            try plainErrors { try download(call, version: nil, service, files) }
        }
        let versioned = EndpointOptions(signed: false, attempt: { call in
            attemptDownload(call, version: call.path("version"), files)
        })
        table.on("GET", "/data/file/download/:id/:version", versioned) { call in
            try plainErrors { try download(call, version: call.path("version"), service, files) }
        }
    }

    /// `download` for a resized variant whose bytes are held in memory, answered without waiting and without
    /// opening a file: the file's row through a free read connection, the original's presence (from memory
    /// when it was seen within the last second, `BlobStore.recentlyContains`), the variant from memory. The same response `download` gives; nil for anything else (an original, a variant not in
    /// memory, an unknown file, no connection free), which `download` answers on a worker.
    static func attemptDownload(_ call: BackbeamCall, version: String?, _ files: FileServices) -> BackbeamReply? {
        let id = call.path("id")
        let resize = resizeRequest(call, files)
        guard resize.mode != .original, Identifiers.isObjectID(id),
              let stored = try? files.store.fileContentIfAtHand(space: call.space, id: id),
              files.blobs.recentlyContains(stored.blob),
              let cached = files.variants.cachedContents(key: variantKey(call, id: id, stored), request: resize)
        else { return nil }
        defer { files.recordImageWork() }
        let response = FileServing.respond(contents: cached.bytes, etag: quotedVariantETag(id, stored, resize),
                                           request: call.request, contentType: cached.mimeType,
                                           cacheControl: cacheControl(version: version, stored),
                                           lastModified: lastModified(stored))
        return reply(response, contentType: cached.mimeType)
    }

    /// JSONP does not apply to downloads (§2.3.3): their errors are answered as plain JSON even with a
    /// `callback` parameter.
    static func plainErrors(_ body: () throws -> BackbeamReply) throws -> BackbeamReply {
        do {
            return try body()
        } catch let error as BackbeamError {
            return BackbeamReply(response: BackbeamResponses.error(error, callback: nil))
        }
    }

    static func download(_ call: BackbeamCall, version: String?, _ service: ServiceContext,
                         _ files: FileServices) throws -> BackbeamReply {
        let id = call.path("id")
        guard Identifiers.isObjectID(id), let stored = try files.store.fileContent(space: call.space, id: id),
              let original = files.blobs.path(for: stored.blob) else {
            throw BackbeamError(.objectNotFound)
        }
        var path = original
        var contentType = FileMIME.servable(stored.mime)
        var etag = "\(id)-\(stored.version)"
        let resize = resizeRequest(call, files)
        if resize.mode != .original {
            defer { files.recordImageWork() }
            do {
                if case .variant(let variantPath, _, let mimeType) = try files.variants.variant(
                    of: original, key: variantKey(call, id: id, stored), request: resize) {
                    path = variantPath
                    contentType = mimeType
                    etag = variantETag(id, stored, resize)
                }
            } catch {
                throw backbeamError(error)
            }
        }
        guard let response = FileServing.respond(file: path, etag: Validators.strongETag(etag), request: call.request,
                                                 contentType: contentType, cacheControl: cacheControl(version: version, stored),
                                                 lastModified: lastModified(stored)) else {
            throw BackbeamError(.objectNotFound)
        }
        return reply(response, contentType: contentType)
    }

    static func resizeRequest(_ call: BackbeamCall, _ files: FileServices) -> ResizeRequest {
        let p = call.parameters
        return ResizeRequest(width: p.value("width"), height: p.value("height"), thumb: p.value("thumb"),
                             maxSide: files.variants.configuration.maxSide)
    }

    /// The space is part of the key: object ids are unique only within one environment.
    static func variantKey(_ call: BackbeamCall, id: String, _ stored: StoredFileContent) -> VariantKey {
        // Bytes gathered in one buffer (a cached download asks for its key on every request): the interpolation
        // grew its string piece by piece.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(id.utf8.count + 21)
        bytes.append(contentsOf: String(call.space.value).utf8)
        bytes.append(UInt8(ascii: "/"))
        bytes.append(contentsOf: id.utf8)
        return VariantKey(file: String(decoding: bytes, as: UTF8.self), version: stored.version)
    }

    static func variantETag(_ id: String, _ stored: StoredFileContent, _ resize: ResizeRequest) -> String {
        "\(id)-\(stored.version)-" + resize.token
    }

    /// `Validators.strongETag(variantETag(...))`, written in one buffer for the cached download.
    static func quotedVariantETag(_ id: String, _ stored: StoredFileContent, _ resize: ResizeRequest) -> String {
        let token = resize.token
        var bytes: [UInt8] = []
        bytes.reserveCapacity(id.utf8.count + token.utf8.count + 24)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: id.utf8)
        bytes.append(UInt8(ascii: "-"))
        bytes.append(contentsOf: String(stored.version).utf8)
        bytes.append(UInt8(ascii: "-"))
        bytes.append(contentsOf: token.utf8)
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func cacheControl(version: String?, _ stored: StoredFileContent) -> String {
        version.flatMap(requestedVersion) == stored.version ? currentVersionCache : otherVersionCache
    }

    static func lastModified(_ stored: StoredFileContent) -> Int { Int(stored.uploadedAt / 1000) }

    /// The download's own headers on `response`. Taken as `consuming`: a borrowed response copied into a
    /// local shared its header list with the caller's, so the first header set here copied the list, and the
    /// next grew the copy again (about 1,100 instructions per cached download).
    static func reply(_ response: consuming HTTPResponse, contentType: String) -> BackbeamReply {
        response.headers.set("X-Content-Type-Options", "nosniff")
        if FileMIME.isActive(contentType) {
            // Files share the daemon's origin with every API: nothing uploaded may run as a page there.
            response.headers.set("Content-Disposition", "attachment")
            response.headers.set("Content-Security-Policy", "sandbox")
        }
        return BackbeamReply(response: response)
    }

    /// A resize refused (§5.3.5): 400 `ImageTooLarge` for a bomb, 503 `ServiceUnavailable` (with
    /// `Retry-After`) when every image worker stayed busy for the queue wait.
    static func backbeamError(_ error: ImageVariantError) -> BackbeamError {
        switch error {
        case .imageTooLarge: return BackbeamError(.imageTooLarge)
        case .busy: return BackbeamError(.serviceUnavailable, "The image workers are busy; try again")
        }
    }

    /// The `:version` segment: decimal digits, optionally with a fraction of zeros (Android builds `1.0` from a
    /// double, §7.3 item 13). Nil for anything else, which serves the current content with the short cache.
    static func requestedVersion(_ text: String) -> Int? {
        // Read on the bytes (every download asks): at most 18 digits, so the value cannot overflow.
        var text = text
        return text.withUTF8 { bytes -> Int? in
            var value = 0
            var index = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                guard index < 18 else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > 0 else { return nil }
            guard index < bytes.count else { return value }
            // A fraction: "." and one or more zeros, nothing else.
            guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
            for byte in bytes[(index + 1)...] where byte != UInt8(ascii: "0") { return nil }
            return value
        }
    }
}
