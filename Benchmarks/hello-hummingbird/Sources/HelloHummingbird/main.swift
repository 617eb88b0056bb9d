// Serves GET /health -> {"status":"ok"} (application/json) on 127.0.0.1:<port>, the same reply as
// Quartet's /health, so a load generator can compare the two servers on equal work.
//
// Usage: HelloHummingbird [port]   (default 8081)
import Foundation
import Hummingbird
import Logging
import NIOCore

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8081
guard (0...65_535).contains(port) else {
    print("usage: HelloHummingbird [port 0-65535]")
    exit(2)
}

/// The body is built once; each response shares the same bytes.
let healthBody = ByteBuffer(string: #"{"status":"ok"}"#)

let router = Router()
router.get("health") { _, _ -> Response in
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: healthBody))
}

var logger = Logger(label: "hello-hummingbird")
// Per-request logging would dominate a hello-world benchmark.
logger.logLevel = .warning

let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    logger: logger
)
print("listening on http://127.0.0.1:\(port)")
try await app.runService()
