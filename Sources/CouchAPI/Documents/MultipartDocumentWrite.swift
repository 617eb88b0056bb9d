import Core
import HTTP

/// The multipart/related body of `PUT /{db}/{docid}` (spec §5.11.1): the JSON document, then one part per
/// `"follows":true` attachment, each streamed into the blob store as it is read.
enum MultipartDocumentWrite {
    /// The boundary when the request is `multipart/related` with a usable `boundary` parameter; nil otherwise
    /// (the body is then read as JSON, §2.3).
    static func boundary(_ request: HTTPRequest) -> String? {
        guard let type = request.headers["Content-Type"], mayBeMultipart(type),
              RequestBodies.mediaType(of: type) == "multipart/related" else { return nil }
        return Multipart.boundary(fromContentType: type)
    }

    /// False when the media type of `value` cannot start with `m`: its first byte after spaces and tabs is ASCII
    /// and not `m` or `M` (a document `PUT`'s `application/json` is told apart without making its media type).
    /// Exact for any value: `mediaType(of:)` trims only spaces and tabs, and the lowercase of a character that
    /// starts with such a byte does not start with `m`; a non-ASCII byte leaves the answer to `mediaType(of:)`.
    static func mayBeMultipart(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            guard let first = bytes.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return false }
            return first >= 0x80 || first == UInt8(ascii: "m") || first == UInt8(ascii: "M")
        }
    }

    /// Reads the body of `call`: the document and its `follows` attachments, already published to the blob store.
    static func read(_ call: CouchCall, boundary: String, replicated: Bool) throws -> (JSON, [String: StoredAttachment]) {
        if let encoding = call.request.headers["Content-Encoding"]?.trimmingSpaces(), !encoding.isEmpty,
           encoding.lowercased() != "identity" {
            throw CouchError.badContentType("\(encoding) is not a supported content encoding.")
        }
        guard call.request.body.count <= call.config.maxRequestSize else { throw CouchError.tooLarge }
        let blobs = call.context.blobs
        let limits = RelatedDocumentReader.Limits(maxDocumentPart: call.config.maxDocumentSize,
                                                  maxAttachment: call.config.maxAttachmentSize)
        let logger = call.context.logger
        let (document, attachments) = try read(call.request.body, boundary: boundary, limits: limits,
                                               compression: call.config.attachmentCompression,
                                               maxParts: call.config.maxMultipartParts, replicated: replicated,
                                               report: { logger.error("multipart attachment not stored", metadata: ["error": "\($0)"]) }) {
            try blobs.writer()
        }
        return (.object(document), attachments)
    }

    /// Scans `body`, checks it and publishes its attachment parts through the spools `makeSpool` gives; identity
    /// parts of the types `compression` takes are stored gzip. On any error every spool is discarded and
    /// CouchDB's error is thrown; nothing is published. `report` receives the storage error behind a 500.
    static func read(_ body: RequestBody, boundary: String, limits: RelatedDocumentReader.Limits,
                     compression: AttachmentCompression = .off, maxParts: Int,
                     replicated: Bool, report: (String) -> Void = { _ in },
                     makeSpool: @escaping () throws -> any AttachmentSpool)
        throws(CouchError) -> (JSONObject, [String: StoredAttachment]) {
        var reader = RelatedDocumentReader(limits: limits, compression: compression, makeSpool: makeSpool)
        do {
            try Multipart.stream(body, boundary: boundary, maxParts: maxParts, into: &reader)
            guard let document = reader.document else { throw CouchError.badRequest("The multipart body has no JSON document part") }
            return (document, try reader.attachments(replicated: replicated, report: report))
        } catch let error as MultipartError {
            reader.discardAll()
            if let cause = reader.internalCause { report(cause) }
            throw reader.failure ?? Self.error(for: error)
        } catch let error as CouchError {
            reader.discardAll()
            throw error
        } catch {
            reader.discardAll()
            throw CouchError.internalError
        }
    }

    /// The answer to a body the multipart syntax refused.
    static func error(for error: MultipartError) -> CouchError {
        switch error {
        case .missingBoundary: return .badRequest("Invalid multipart/related boundary")
        case .malformed(let detail): return .badRequest("Invalid multipart/related body: \(detail)")
        case .tooManyParts, .partTooLarge: return .tooLarge
        case .rejected: return .internalError
        }
    }
}
