import Logging

/// One line per request: method, target, status, body bytes, duration and request id.
enum AccessLog {
    static func write(_ logger: Logger, head: RequestHead, requestID: String, remoteAddress: String, status: Int,
                      bytes: Int, seconds: Double, aborted: Bool) {
        let millis = (seconds * 10_000).rounded() / 10
        logger.info("\(head.method.rawValue) \(head.target) \(status) \(bytes)B \(millis)ms\(aborted ? " aborted" : "")",
                    metadata: ["request-id": .string(requestID), "remote": .string(remoteAddress)])
    }
}
