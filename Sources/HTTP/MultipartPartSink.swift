/// Collects one part's content: in memory up to the threshold, then in a temporary file.
struct PartSink {
    /// Limits shared by every part of one body.
    struct Options {
        var maxBytes: Int
        var inMemoryThreshold: Int
        var tempDirectory: String
    }

    let headers: MultipartPartHeaders
    let options: Options
    private var memory: [UInt8] = []
    private var file: TempFileWriter?
    private var size = 0

    init(headers: MultipartPartHeaders, options: Options) {
        self.headers = headers
        self.options = options
    }

    /// Adds content bytes, spooling to disk once the part outgrows the in-memory threshold.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        guard !bytes.isEmpty else { return }
        guard bytes.count <= options.maxBytes - size else { throw .partTooLarge }
        size += bytes.count
        do {
            if let file {
                try file.write(bytes)
            } else if memory.count + bytes.count > options.inMemoryThreshold {
                let writer = try TempFileWriter(directory: options.tempDirectory, prefix: "quartet-part-")
                file = writer
                try writer.write(memory)
                try writer.write(bytes)
                memory = []
            } else {
                memory.append(contentsOf: bytes)
            }
        } catch {
            throw .malformed("part could not be stored: \(error)")
        }
    }

    /// The finished part.
    func finish() throws(MultipartError) -> MultipartPart {
        let body = file?.finish() ?? .bytes(memory)
        return MultipartPart(headers: headers.fields, name: headers.name, filename: headers.filename,
                             contentType: headers.contentType, body: body)
    }

    /// Deletes the temporary file, if any.
    func discard() {
        file?.discard()
    }
}

/// A part's header block and what Content-Disposition and Content-Type say.
public struct MultipartPartHeaders: Sendable {
    /// Every header field of the part, in order.
    public var fields = HTTPHeaders()
    /// The `name` parameter of Content-Disposition.
    public var name: String?
    /// The file name from Content-Disposition (`filename*` preferred over `filename`).
    public var filename: String?
    /// The part's Content-Type, as sent.
    public var contentType: String?

    /// Parses CRLF-terminated `Name: value` lines. A line starting with whitespace continues the previous
    /// value (RFC 2045/5322 folding, still sent by some mail-era clients for multipart/related).
    static func parse(_ block: ArraySlice<UInt8>) throws(MultipartError) -> MultipartPartHeaders {
        var result = MultipartPartHeaders()
        var pairs: [(String, String)] = []
        var lineStart = block.startIndex
        while lineStart < block.endIndex {
            guard let cr = block[lineStart...].firstIndex(of: 0x0D),
                  cr + 1 < block.endIndex, block[cr + 1] == 0x0A else {
                throw .malformed("part header not terminated by CRLF")
            }
            let line = block[lineStart..<cr]
            lineStart = cr + 2
            if let first = line.first, ByteClass.isOWS(first) {
                guard let last = pairs.popLast() else { throw .malformed("part header starts with whitespace") }
                let more = String(decoding: line, as: UTF8.self).trimmingOWS()
                pairs.append((last.0, last.1 + " " + more))
                continue
            }
            guard let colon = line.firstIndex(of: ByteClass.colon), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(ByteClass.isTokenChar) else {
                throw .malformed("invalid part header")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            // A NUL is refused in every part header but Content-Disposition, whose file name clients copy
            // verbatim from the local file: a file name is data that its consumer cleans (`SafeFileName`), and
            // Backbeam lists `a\0b` among the upload names to accept (BB-107). The field name may not hold one.
            guard !line.contains(0) || name.lowercased() == "content-disposition" else {
                throw .malformed("NUL in part header")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingOWS()
            pairs.append((name, value))
        }
        result.fields = HTTPHeaders(pairs)
        result.contentType = result.fields["Content-Type"]
        if let disposition = result.fields["Content-Disposition"] {
            guard let parsed = HeaderParameters.parse(disposition) else {
                throw .malformed("invalid Content-Disposition")
            }
            result.name = parsed.parameter("name")
            guard result.name?.utf8.contains(0) != true else { throw .malformed("NUL in part name") }
            result.filename = parsed.parameter("filename*").flatMap(HeaderParameters.decodeExtendedValue)
                ?? parsed.parameter("filename")
        }
        return result
    }
}

/// The consumer behind `Multipart.parse`: each part in memory or, above the threshold, in a temporary file.
struct PartCollector: MultipartConsumer {
    let options: PartSink.Options
    private(set) var parts: [MultipartPart] = []
    private var current: PartSink?

    init(options: PartSink.Options) {
        self.options = options
    }

    mutating func beginPart(_ headers: MultipartPartHeaders) throws(MultipartError) {
        current = PartSink(headers: headers, options: options)
    }

    mutating func partContent(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        guard var part = current else { throw .malformed("internal state") }
        // Take the sink out so appending does not copy its buffer (copy-on-write).
        current = nil
        do {
            try part.append(bytes)
        } catch {
            current = part
            throw error
        }
        current = part
    }

    mutating func endPart() throws(MultipartError) {
        guard let part = current else { throw .malformed("internal state") }
        current = nil
        parts.append(try part.finish())
    }

    /// Deletes every temporary file created so far (after an error).
    mutating func discardAll() {
        current?.discard()
        current = nil
        Multipart.removeTemporaryFiles(parts)
        parts = []
    }
}

/// The scanner with the collecting consumer: parts in memory or in temporary files.
struct MultipartScanner {
    private var scanner: MultipartStreamScanner<PartCollector>

    init(boundary: String, maxParts: Int, maxPartBytes: Int, inMemoryThreshold: Int, tempDirectory: String) {
        let options = PartSink.Options(maxBytes: maxPartBytes, inMemoryThreshold: inMemoryThreshold, tempDirectory: tempDirectory)
        scanner = MultipartStreamScanner(boundary: boundary, maxParts: maxParts, consumer: PartCollector(options: options))
    }

    /// Takes the next piece of the body.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(MultipartError) {
        try scanner.feed(chunk)
    }

    /// Ends the input: the close delimiter must have been seen. Returns the parts.
    func finish() throws(MultipartError) -> [MultipartPart] {
        try scanner.finish()
        return scanner.consumer.parts
    }

    /// Deletes every temporary file created so far (after an error).
    mutating func discardAll() {
        scanner.consumer.discardAll()
    }
}
