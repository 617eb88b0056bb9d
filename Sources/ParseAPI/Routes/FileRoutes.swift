import Core
import Files
import HTTP

/// `/files` (spec §13): uploads into the content-addressed blob store, downloads with Range support,
/// metadata, deletion. File names are never used as paths.
enum FileRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/files/:filename", ParseRoutes.readOnly("create")) { c in try upload(c) }
        t.add(.delete, "/files/:filename", RouteOptions(masterOnly: true, readOnlyDenial:
            "read-only masterKey isn't allowed to perform the delete operation.")) { c in try delete(c) }
    }

    /// Answers that come before credentials: downloads, metadata, and an upload without a name.
    static func beforeCredentials(_ app: ParseApp, _ req: HTTPRequest, _ segs: [String]) throws -> ParseReply? {
        guard segs.first == "files" else { return nil }
        if req.method == .post && segs.count == 1 { throw ParseError(122, "Filename not provided.") }
        guard req.method == .get || req.method == .head else { return nil }
        if segs.count == 4, segs[2] == "metadata" {
            guard segs[1] == app.appId else { throw ParseError(119, "Invalid application ID.", status: 403) }
            let record = try app.store.read { try $0.file(segs[3]) }
            var out = JSONObject()
            if let meta = record?.metadata { for (k, v) in meta { out[k] = v } }
            return .ok(out)
        }
        guard segs.count == 3 else { return nil }
        guard segs[1] == app.appId else { throw ParseError(119, "Invalid application ID.", status: 403) }
        return download(app, req, name: segs[2])
    }

    static func download(_ app: ParseApp, _ req: HTTPRequest, name: String) -> ParseReply {
        let record = try? app.store.read { try $0.file(name) }
        // The blob's hash is its ETag; its content type comes from the stored name only (spec §13.4).
        guard let record, let blobs = app.blobs,
              var response = FileServing.respond(blob: record.blobHash, in: blobs, request: req,
                                                 contentType: MIMEType.forFileName(record.name)) else {
            var r = ParseReply.ok(JSONObject())
            r.raw = HTTPResponse.text(.notFound, "File not found.")
            return r
        }
        response.headers.set("Accept-Ranges", "bytes")
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Content-Security-Policy", "default-src 'none'; sandbox")
        if isActiveContent(record.name) { response.headers.set("Content-Disposition", "attachment") }
        var r = ParseReply.ok(JSONObject())
        r.raw = response
        return r
    }

    /// Types that can carry active content (spec §13.3, and JavaScript): served as attachments.
    static func isActiveContent(_ name: String) -> Bool {
        guard let ext = MIMEType.fileExtension(of: name) else { return false }
        return ParseConfig.defaultBlockedExtensions.contains(ext) || ext == "js" || ext == "mjs"
    }

    /// For an upload without a valid app-id header, the JSON envelope of the JS SDK (spec §2.5).
    static func envelope(_ app: ParseApp, _ req: HTTPRequest) -> JSONObject {
        if req.headers["X-Parse-Application-Id"] == app.appId { return JSONObject() }
        guard let bytes = try? req.body.readAll(limit: app.config.maxUploadSize),
              let obj = StoredJSON.parseRequest(bytes, maxBytes: app.config.maxUploadSize)?.objectValue else {
            return JSONObject()
        }
        return obj
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !name.hasSuffix("."), !name.hasSuffix(" ") else { return false }
        func alnum(_ c: UInt8) -> Bool { FieldNames.isAlpha(c) || (c >= 48 && c <= 57) }
        guard alnum(first) || first == 95 else { return false }
        return name.utf8.allSatisfy { alnum($0) || $0 == 64 || $0 == 46 || $0 == 32 || $0 == 126 || $0 == 95 || $0 == 45 }
    }

    static func upload(_ c: ParseContext) throws -> ParseReply {
        let fu = c.config.fileUpload
        if !c.caller.readsAsMaster {
            if c.caller.userId == nil {
                if !fu.enableForPublic { throw ParseError(130, "File upload by public is disabled.") }
            } else if c.caller.isAnonymousUser {
                if !fu.enableForAnonymousUser { throw ParseError(130, "File upload by anonymous user is disabled.") }
            } else if !fu.enableForAuthenticatedUser {
                throw ParseError(130, "File upload by authenticated user is disabled.")
            }
        }
        guard let blobs = c.app.blobs else { throw ParseError.internalError }
        var content: RequestBody = c.http.body
        var metadata: JSONObject?
        if let b64 = c.body["base64"] {
            guard let text = b64.stringValue, let bytes = Base64.decode(text) else {
                throw ParseError(130, "Invalid file upload.")
            }
            content = bytes.isEmpty ? .empty : .bytes(bytes)
            if let fd = c.body["fileData"]?.objectValue {
                try ForbiddenKeys.check(.object(fd))
                var m = JSONObject()
                m["metadata"] = fd["metadata"] ?? .object(JSONObject())
                m["tags"] = fd["tags"] ?? .object(JSONObject())
                metadata = m
            }
        }
        if content.count == 0 { throw ParseError(130, "Invalid file upload.") }
        var name = c.param("filename")
        guard name.count <= 128 else { throw ParseError(122, "Filename too long.") }
        guard isValidName(name) else { throw ParseError(122, "Filename contains invalid characters.") }
        let contentType = c.contentType.flatMap(MIMEType.essence(of:))
        var ext = MIMEType.fileExtension(of: name)
        if ext == nil, let ct = contentType, let slash = ct.firstIndex(of: "/") {
            ext = String(ct[ct.index(after: slash)...]).replacingOccurrences(of: " ", with: "")
        }
        if !c.caller.readsAsMaster, let ext {
            let allowed = fu.allowedExtensions.contains("*") || fu.allowedExtensions.contains(ext)
            if fu.blockedExtensions.contains(ext) || !allowed {
                throw ParseError(130, "File upload of extension \(ext) is disabled.")
            }
        }
        if !name.contains("."), let ct = contentType, let mapped = MIMEType.preferredExtension(for: ct) { name += "." + mapped }
        let stored = c.config.preserveFileName ? name : RandomID.hex(16) + "_" + name
        let ref: BlobReference
        do {
            ref = try Uploads.store(content, in: blobs, limits: UploadLimits(maxBytes: c.config.maxUploadSize))
        } catch UploadError.empty {
            throw ParseError(130, "Invalid file upload.")
        } catch UploadError.tooLarge {
            throw ParseError.entityTooLarge
        }
        let record = FileRecord(name: stored, blobHash: ref.hash, size: ref.size,
                                contentType: contentType ?? MIMEType.forFileName(stored), metadata: metadata,
                                createdAt: ParseDate.now())
        do {
            try c.app.store.addFile(record, blobs: blobs)
        } catch StoreConflict.fileName {
            throw ParseError(130, "A file with this name already exists.")
        }
        let url = ObjectRenderer.fileURL(serverURL: c.serverURL, appId: c.app.appId, name: stored)
        return .created(["url": .string(url), "name": .string(stored)], location: url)
    }

    static func delete(_ c: ParseContext) throws -> ParseReply {
        guard let blobs = c.app.blobs else { throw ParseError.internalError }
        guard try c.app.store.removeFile(c.param("filename"), blobs: blobs) else {
            throw ParseError(153, "Could not delete file.")
        }
        return .empty
    }
}

import Storage
