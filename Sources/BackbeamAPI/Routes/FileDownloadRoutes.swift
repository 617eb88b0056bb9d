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
        let unsigned = EndpointOptions(signed: false)
        table.on("GET", "/data/file/download/:id", unsigned) { call in
            try plainErrors { try download(call, version: nil, service, files) }
        }
        table.on("GET", "/data/file/download/:id/:version", unsigned) { call in
            try plainErrors { try download(call, version: call.path("version"), service, files) }
        }
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
        let cacheControl = version.flatMap(requestedVersion) == stored.version ? currentVersionCache : otherVersionCache
        var path = original
        var contentType = FileMIME.servable(stored.mime)
        var etag = "\(id)-\(stored.version)"
        let p = call.parameters
        let resize = ResizeRequest(width: p.value("width"), height: p.value("height"), thumb: p.value("thumb"),
                                   maxSide: files.variants.configuration.maxSide)
        if resize.mode != .original {
            defer { files.recordImageWork() }
            // The space is part of the key: object ids are unique only within one environment.
            let key = VariantKey(file: "\(call.space.value)/\(id)", version: stored.version)
            do {
                if case .variant(let variantPath, _, let mimeType) = try files.variants.variant(of: original, key: key, request: resize) {
                    path = variantPath
                    contentType = mimeType
                    etag += "-" + resize.token
                }
            } catch {
                throw backbeamError(error)
            }
        }
        guard var response = FileServing.respond(file: path, etag: Validators.strongETag(etag), request: call.request,
                                                 contentType: contentType, cacheControl: cacheControl,
                                                 lastModified: Int(stored.uploadedAt / 1000)) else {
            throw BackbeamError(.objectNotFound)
        }
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
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 18,
              whole.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
        }
        return Int(whole)
    }
}
