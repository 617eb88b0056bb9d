import Core
import HTTP
@testable import CouchAPI

/// Harness for gzip decoding: Core's `Inflater` fed in pieces, and Couch's request-body decoding
/// (`GzipRequestBody.decoded`) that every gzip-encoded request goes through before it is routed.
enum GzipFuzz {
    /// The input as a gzip-encoded Couch request body under a decoded-size limit its length picks (small,
    /// around the single-pass size, large), so both the single-pass and the measured paths run. Refusals must
    /// be Couch's 400 or 413. A decoded body must be within the limit, equal what the inflater gives when fed
    /// in pieces of a size the input picks, and survive a deflate/inflate round trip.
    static func body(_ input: [UInt8]) -> FuzzOutcome {
        // An empty body is left alone (there is nothing to decode), so the checks below do not apply.
        guard !input.isEmpty else { return .refused("empty body") }
        // The large limit is four times the single-pass size: past it, so the measured path decodes to sizes
        // the single pass refuses, and 413s past its own end, while a gzip bomb (a few KiB inflating to the
        // limit, inflated five times below) costs a quarter of what a 1 MiB limit did.
        let limits = [1024, GzipRequestBody.onePassLimit + 1000, 4 * GzipRequestBody.onePassLimit]
        let limit = limits[input.count % limits.count]
        var headers = HTTPHeaders()
        headers.add("Content-Encoding", "gzip")
        let decoded: [UInt8]
        do {
            let request = try HTTPRequest(method: .post, target: "/db/_bulk_docs", headers: headers, body: .bytes(input))
            let result = try GzipRequestBody.decoded(request, route: .database("db"), method: .post, limit: limit, budget: nil)
            guard case .bytes(let bytes) = result.request.body, result.charge == 0 else {
                return .violated("decoded body is not in memory")
            }
            decoded = bytes
        } catch let error as CouchError {
            guard error.status == 400 || error.status == 413 else { return .violated("unexpected refusal \(error)") }
            return .refused("\(error.status) \(error.reason)")
        } catch {
            return .violated("foreign error \(error)")
        }
        guard decoded.count <= limit else { return .violated("decoded \(decoded.count) bytes past the limit \(limit)") }
        // The same input fed in uneven pieces decodes to the same bytes.
        let piece = (input.first.map(Int.init) ?? 0) % 13 + 1
        do {
            let inflater = try Inflater(format: .gzip, maxOutput: limit)
            var output: [UInt8] = []
            var offset = 0
            while offset < input.count {
                let end = min(input.count, offset + piece)
                try input[offset..<end].withUnsafeBytes { raw in try inflater.feed(raw) { output.append(contentsOf: $0) } }
                offset = end
            }
            try inflater.finish()
            guard output == decoded else { return .violated("piecewise inflate differs (pieces of \(piece))") }
            let again = try Compression.inflate(try Compression.deflate(decoded, format: .gzip, level: piece % 9 + 1),
                                                format: .gzip, maxOutput: decoded.count)
            guard again == decoded else { return .violated("deflate/inflate round trip differs") }
        } catch {
            return .violated("accepted input fails piecewise: \(error)")
        }
        return .accepted
    }
}
