import Logging

/// One line per request: method, target, status, body bytes, duration and request id.
enum AccessLog {
    static func write(_ logger: Logger, request: HTTPRequest, status: Int, bytes: Int, seconds: Double,
                      aborted: Bool) {
        let millis = (seconds * 10_000).rounded() / 10
        logger.info("\(request.method.rawValue) \(request.target) \(status) \(bytes)B \(millis)ms\(aborted ? " aborted" : "")",
                    metadata: ["request-id": .string(request.requestID), "remote": .string(request.remoteAddress)])
    }
}
