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
    var body: BodyCollector
    var parked: ParkedResponse?
    /// Monotonic time the head was complete.
    let startNanos: UInt64
    var responseStarted: UInt64?
    var status = 0
    var bytesSent = 0
    /// CORS headers were produced by the preflight itself.
    var corsDone = false

    init(head: RequestHead, rawPath: String, requestID: String, body: BodyCollector, startNanos: UInt64) {
        self.head = head
        self.rawPath = rawPath
        self.requestID = requestID
        self.body = body
        self.startNanos = startNanos
    }

    /// Deletes a spooled body file.
    func discardBody() { body.discard() }
}

/// Collects a request body: in memory up to the threshold, then spooled to a temp file, because uploads of
/// hundreds of megabytes must not be held in memory.
struct BodyCollector {
    let threshold: Int
    let tempDirectory: String
    private var bytes: [UInt8] = []
    private var spool: TempFileWriter?
    private var finished: RequestBody?

    init(threshold: Int, tempDirectory: String) {
        self.threshold = threshold
        self.tempDirectory = tempDirectory
    }

    /// Appends a chunk; throws when the spool file cannot be created or written.
    mutating func append(_ chunk: [UInt8]) throws(FileIOError) {
        if spool == nil && bytes.count + chunk.count <= threshold {
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            return
        }
        if spool == nil {
            let writer = try TempFileWriter(directory: tempDirectory)
            spool = writer
            try writer.write(bytes)
            bytes = []
        }
        try spool?.write(chunk)
    }

    /// The finished body (a spool file stays until `discard`).
    mutating func finish() -> RequestBody {
        let body: RequestBody
        if let spool {
            body = spool.finish()
        } else {
            body = bytes.isEmpty ? .empty : .bytes(bytes)
        }
        finished = body
        bytes = []
        return body
    }

    /// Deletes the spool file, if any.
    mutating func discard() {
        spool?.discard()
        finished?.removeTemporaryFile()
        spool = nil
        finished = nil
        bytes = []
    }
}
