import Foundation
import Core
import HTTP

/// `GET /health` and `GET /metrics`, mounted at the root.
enum OperationalRoutes {
    static func register(on router: Router, lifecycle: Lifecycle, metrics: MetricsRegistry, cors: CORSPolicy,
                         metricsAccess: MetricsAccess) {
        let group = router.group("", cors: cors)
        // On the I/O thread: the answer is one atomic read, and a health check must not queue behind
        // handlers that occupy every worker (Docker's HEALTHCHECK would then mark a busy server unhealthy).
        // Built once: the ready answer never changes, and every health check of a running server gets it.
        let ready = HTTPResponse.json(.ok, "{\"status\":\"ok\"}")
        group.on([.get], "/health", runsOnIOThread: true) { _ in
            let state = lifecycle.state
            if state == .ready {
                return .response(ready)
            }
            return .response(.json(.serviceUnavailable, "{\"status\":\"\(state.rawValue)\"}"))
        }
        // On a worker: a request from outside `server.metricsAllowFrom` has its admin password checked.
        group.on([.get], "/metrics") { request in
            if let refusal = metricsAccess.refusal(request) { return .response(refusal) }
            var headers = HTTPHeaders()
            headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return .response(HTTPResponse(status: .ok, headers: headers, body: .bytes(Array(metrics.render().utf8))))
        }
    }
}
