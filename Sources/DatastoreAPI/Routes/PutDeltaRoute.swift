import Core
import HTTP

/// `put_delta` (§6.8). Syntax is checked here (step 2); resolution, permission, revision/nonce check,
/// application, size checks and the durable commit run as one write job (steps 3–8).
enum PutDeltaRoute {
    /// Longest accepted nonce, in bytes.
    static let maxNonceBytes = 255

    static func register(on group: RouteGroup, _ context: EndpointContext) {
        context.endpoint(group, "put_delta") { call in
            let request = try parse(call.params, maxDepth: context.config.maxJsonDepth)
            let parked = EndpointContext.writeParking()
            context.store.putDelta(request, for: call.user) { result in
                if case .success(let outcome) = result { context.metrics.putOutcome(outcome) }
                context.finish(parked, result, request: call.request) { outcome in
                    switch outcome {
                    case .committed(let rev), .retried(let rev):
                        return WireResponse.object { w in w.raw("{\"rev\":"); w.int(rev); w.raw("}") }
                    case .conflict(let rev, let current):
                        return SoftOutcome.conflict(rev: rev, current: current)
                    case .notFound:
                        return SoftOutcome.notFound(handle: request.handle)
                    case .accessDenied:
                        return SoftOutcome.accessDenied(handle: request.handle)
                    }
                }
            }
            return .parked(parked)
        }
    }

    /// Step 2: every syntax rule, so that nothing malformed ever reaches the log other clients replay.
    static func parse(_ params: RequestParameters, maxDepth: Int) throws -> PutDeltaRequest {
        let handle = try params.required("handle")
        let rev = try RevParameter.parse(params)
        guard let changes = try params.json("changes", maxDepth: maxDepth) else {
            throw DatastoreAPIError.badRequest("Missing parameter 'changes'")
        }
        let delta: ParsedDelta
        do { delta = try ChangeParser.parse(changes) } catch { throw DatastoreAPIError.badRequest(error.message) }
        let nonce = params.value("nonce") ?? ""
        guard nonce.utf8.count <= maxNonceBytes else {
            throw DatastoreAPIError.badRequest("nonce longer than \(maxNonceBytes) bytes")
        }
        // Stored compactly; values keep their exact lexemes and key order.
        return PutDeltaRequest(handle: handle, rev: rev, nonce: nonce, delta: delta,
                               changesJSON: JSONWriter.serialize(changes))
    }
}
