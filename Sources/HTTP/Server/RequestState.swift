import Glibc

/// What a connection knows about the request it is serving. A class: it is updated in place many times per
/// request, and copying a struct of this size (strings, headers, closures) showed up in profiles.
final class RequestState {
    var head: RequestHead
    /// The path part of the target, still encoded (routing works on it).
    let rawPath: String
    let requestID: String
    /// Built on the I/O thread only for requests answered without a handler (their renderers get it);
    /// routed requests are built by the worker.
    var request: HTTPRequest?
    var match: RouteMatch?
    /// The group that renders this request's errors and applies its CORS policy.
    var group: CompiledGroup?
    /// A response decided without a handler (404, 405, preflight, 417), sent once the head is complete.
    var immediate: HTTPResponse?
    var body: RequestBodyCollector
    /// The body handed to the handler; its temp file is deleted after the response.
    var finishedBody: RequestBody?
    var parked: ParkedResponse?
    /// Monotonic time the head was complete.
    let startNanos: UInt64
    /// The same moment for `HTTPRequest.receivedAt`.
    let receivedAt = ContinuousClock.now
    var responseStarted: UInt64?
    var status = 0
    var bytesSent = 0
    /// Bytes of the decoding budget this request waits for (while `.queued`).
    var decodingCharge = 0
    /// CORS headers were produced by the preflight itself.
    var corsDone = false

    init(head: RequestHead, rawPath: String, requestID: String, body: RequestBodyCollector, startNanos: UInt64) {
        self.head = head
        self.rawPath = rawPath
        self.requestID = requestID
        self.body = body
        self.startNanos = startNanos
    }

    /// The collected body, kept so its temp file can be deleted later.
    func finishBody() -> RequestBody {
        let finished = body.finish()
        finishedBody = finished
        return finished
    }

    /// Deletes a spooled body file (collected or still being collected).
    func discardBody() {
        body.discard()
        finishedBody?.removeTemporaryFile()
        finishedBody = nil
    }
}
