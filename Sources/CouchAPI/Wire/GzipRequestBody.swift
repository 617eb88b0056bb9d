import Core
import HTTP

/// gzip-encoded request bodies (spec §2.3): Couchbase Lite 1.x gzips the bodies it sends. Every endpoint
/// but a standalone attachment `PUT` (§3.5.3, which stores the gzip bytes as they are) sees the decoded body,
/// as if it had been sent plain; the decoded size counts against the body limit of the request
/// (`CouchBodyLimit`: `couch.maxJsonRequestSize` for JSON bodies, `couch.maxRequestSize` for multipart ones).
///
/// Memory: a body decoding to at most `onePassLimit` bytes is decoded once, into memory. A larger one is
/// first measured without keeping its output (64 KiB of memory, however large the claim: a bomb is refused
/// with 413 as soon as its output passes the limit), then charged to the server's decoding budget
/// (`server.maxDecodingBytes`) as a plain body of its decoded size would have been, and only then decoded
/// into memory. Decoding twice costs CPU on the rare large gzip body; the budget is what keeps a burst of
/// them from taking the memory of the whole server. No room in the budget → 503, which clients retry.
enum GzipRequestBody {
    /// Decoded sizes below the budget's charged minimum need no charge and no measuring pass.
    static var onePassLimit: Int { DecodingBudget.minimumCharged }

    static let notGzipped = CouchError.badRequest("Request body is not properly gzipped.")
    static let busy = CouchError(status: 503, error: "service_unavailable",
                                 reason: "The server is busy decoding other requests; retry later.")

    /// `request` with its body decoded when it is gzip-encoded and the resource takes decoded bodies, plus
    /// the bytes taken from `budget`, which the caller releases once the handler has returned. Any other
    /// `Content-Encoding` is left for the resource to refuse (415) when it reads the body.
    static func decoded(_ request: HTTPRequest, route: CouchRoute, method: HTTPMethod, limit: Int,
                        budget: DecodingBudget?) throws -> (request: HTTPRequest, charge: Int) {
        // A body-less request (every read) leaves here without looking at a header.
        guard request.body.count > 0, let encoding = request.headers["Content-Encoding"],
              isGzip(encoding) else { return (request, 0) }
        if case .attachment = route, method == .put { return (request, 0) }
        var decoded = request
        var charge = 0
        do {
            if let small = try decodeSmall(request.body, maxOutput: min(limit, onePassLimit)) {
                decoded.body = .bytes(small)
            } else {
                guard limit > onePassLimit else { throw CouchError.tooLarge }
                let size = try measure(request.body, limit: limit)
                if let budget {
                    let held = budget.charge(forBodyBytes: request.body.count)
                    charge = max(0, budget.charge(forBodyBytes: size) - held)
                    guard charge == 0 || budget.tryAcquire(charge) else { throw busy }
                }
                do {
                    decoded.body = .bytes(try decode(request.body, size: size))
                } catch {
                    if charge > 0 { budget?.release(charge) }
                    throw error
                }
            }
        } catch let error as CompressionError {
            throw map(error)
        }
        decoded.headers.remove("Content-Encoding")
        decoded.headers.set("Content-Length", String(decoded.body.count))
        return (decoded, charge)
    }

    /// `gzip` (any case, spaces around it ignored); `x-gzip` too, the name RFC 9110 keeps as its alias.
    static func isGzip(_ value: String) -> Bool {
        let token = value.trimmingSpaces().lowercased()
        return token == "gzip" || token == "x-gzip"
    }

    /// The decoded body when it has at most `maxOutput` bytes; nil when it has more.
    private static func decodeSmall(_ body: RequestBody, maxOutput: Int) throws -> [UInt8]? {
        var output: [UInt8] = []
        do {
            try inflate(body, maxOutput: maxOutput) { output.append(contentsOf: $0) }
        } catch CompressionError.outputTooLarge {
            return nil
        }
        return output
    }

    /// The decoded size, at most `limit` (413 past it), without keeping the output.
    private static func measure(_ body: RequestBody, limit: Int) throws -> Int {
        do {
            return try inflate(body, maxOutput: limit) { _ in }
        } catch CompressionError.outputTooLarge {
            throw CouchError.tooLarge
        }
    }

    /// The decoded body, known to be `size` bytes.
    private static func decode(_ body: RequestBody, size: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(size)
        try inflate(body, maxOutput: size) { output.append(contentsOf: $0) }
        return output
    }

    /// Feeds the whole body (read piece by piece when spooled) through an inflater; returns the output size.
    @discardableResult
    static func inflate(_ body: RequestBody, maxOutput: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let inflater = try Inflater(format: .gzip, maxOutput: maxOutput)
        try body.forEachChunk { try inflater.feed($0, sink) }
        try inflater.finish()
        return inflater.outputCount
    }

    static func map(_ error: CompressionError) -> CouchError {
        switch error {
        case .corrupt, .truncated: return notGzipped
        case .outputTooLarge: return .tooLarge
        case .outOfMemory: return busy
        }
    }
}
