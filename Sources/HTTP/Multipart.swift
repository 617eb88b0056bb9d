/// One part of a multipart body.
public struct MultipartPart: Sendable {
    /// The part's own header fields.
    public var headers: HTTPHeaders
    /// The `name` of a form-data Content-Disposition.
    public var name: String?
    /// The file name from Content-Disposition (`filename*` preferred over `filename`).
    public var filename: String?
    /// The part's Content-Type, as sent.
    public var contentType: String?
    /// The part's content: bytes, or a temporary file for parts above the in-memory threshold (the caller
    /// owns that file; `Multipart.removeTemporaryFiles` deletes them).
    public var body: RequestBody

    /// Creates a part.
    public init(headers: HTTPHeaders, name: String? = nil, filename: String? = nil, contentType: String? = nil,
                body: RequestBody) {
        self.headers = headers
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.body = body
    }
}

/// Why a multipart body was refused.
public enum MultipartError: Error, Sendable, Equatable {
    /// No usable boundary: absent from Content-Type, empty, longer than 70 characters, or with CR/LF.
    case missingBoundary
    /// The body does not follow the multipart syntax; the text says where it went wrong.
    case malformed(String)
    /// More parts than `maxParts`.
    case tooManyParts
    /// A part larger than `maxPartBytes`.
    case partTooLarge
    /// A `MultipartConsumer` refused a part; the consumer keeps its own reason.
    case rejected
}

/// Receives a multipart body's parts while `Multipart.stream` scans it: each part's header block, then its
/// content in pieces (none for an empty part), then its end. A method that throws stops the scan.
public protocol MultipartConsumer {
    /// A part starts.
    mutating func beginPart(_ headers: MultipartPartHeaders) throws(MultipartError)
    /// The next bytes of the current part's content.
    mutating func partContent(_ bytes: UnsafeRawBufferPointer) throws(MultipartError)
    /// The current part is complete.
    mutating func endPart() throws(MultipartError)
}

/// Streaming multipart/form-data, multipart/related, multipart/mixed parser (RFC 2046 5.1, RFC 7578).
public enum Multipart {
    /// Longest boundary RFC 2046 allows.
    static let maxBoundaryLength = 70
    /// Size of the pieces a file body is read in.
    static let readChunkSize = 1 << 16

    /// The `boundary` parameter of a `multipart/...` Content-Type; nil for other types, a missing,
    /// empty or over-long boundary, or one containing CR or LF.
    public static func boundary(fromContentType contentType: String) -> String? {
        guard let parsed = HeaderParameters.parse(contentType),
              parsed.value.lowercased().hasPrefix("multipart/"),
              let boundary = parsed.parameter("boundary"), isValidBoundary(boundary) else { return nil }
        return boundary
    }

    static func isValidBoundary(_ boundary: String) -> Bool {
        let count = boundary.utf8.count
        return count >= 1 && count <= maxBoundaryLength && !boundary.utf8.contains { $0 == 0x0D || $0 == 0x0A }
    }

    /// Parses the whole body (memory or file) streaming over it, spooling parts above `inMemoryThreshold` to `tempDirectory`.
    /// A file body is read in 64 KiB pieces and never held whole. On error every temporary file made so
    /// far is deleted.
    public static func parse(_ body: RequestBody, boundary: String, maxParts: Int = 1000, maxPartBytes: Int,
                             inMemoryThreshold: Int, tempDirectory: String) throws(MultipartError) -> [MultipartPart] {
        guard isValidBoundary(boundary) else { throw .missingBoundary }
        var scanner = MultipartScanner(boundary: boundary, maxParts: maxParts, maxPartBytes: maxPartBytes,
                                       inMemoryThreshold: inMemoryThreshold, tempDirectory: tempDirectory)
        do {
            try body.forEachChunk(chunkSize: readChunkSize) { chunk in try scanner.feed(chunk) }
            return try scanner.finish()
        } catch let error as MultipartError {
            scanner.discardAll()
            throw error
        } catch let error as FileIOError {
            scanner.discardAll()
            throw .malformed("body could not be read: \(error)")
        } catch {
            scanner.discardAll()
            throw .malformed("\(error)")
        }
    }

    /// Scans the whole body (memory or file, read in 64 KiB pieces), handing every part to `consumer` as it
    /// goes: nothing is kept here, so what the parts cost is up to the consumer. On error the consumer holds
    /// whatever it made of the parts so far and must clean up itself. A file that cannot be read is `.malformed`.
    public static func stream<Consumer: MultipartConsumer>(_ body: RequestBody, boundary: String, maxParts: Int,
                                                          into consumer: inout Consumer) throws(MultipartError) {
        guard isValidBoundary(boundary) else { throw .missingBoundary }
        var scanner = MultipartStreamScanner(boundary: boundary, maxParts: maxParts, consumer: consumer)
        defer { consumer = scanner.consumer }
        do {
            try body.forEachChunk(chunkSize: readChunkSize) { chunk in try scanner.feed(chunk) }
            try scanner.finish()
        } catch let error as MultipartError {
            throw error
        } catch {
            throw .malformed("body could not be read")
        }
    }

    /// Deletes the temporary files of spooled parts.
    public static func removeTemporaryFiles(_ parts: [MultipartPart]) {
        for part in parts { part.body.removeTemporaryFile() }
    }
}
