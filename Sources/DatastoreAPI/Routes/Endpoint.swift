import ChangeFeed
import HTTP
import Logging

/// What every endpoint handler gets: the parsed parameters and the authenticated user.
struct EndpointCall: Sendable {
    let request: HTTPRequest
    let params: RequestParameters
    let user: DatastoreUser
}

/// Shared state of the endpoints (store, await feed, configuration, renderer).
struct EndpointContext: Sendable {
    let store: any DatastoreStore
    let awaits: LongPollFeed<AwaitRequest>
    let config: DatastoreConfig
    let renderer: DatastoreErrorRenderer
    let metrics: DatastoreMetrics
    let logger: Logger

    /// Batch cap for get_deltas and await answers.
    var cap: DeltaBatchCap {
        DeltaBatchCap(maxDeltas: config.maxDeltasPerResponse, maxBytes: config.maxDeltaBytesPerResponse)
    }

    /// Registers `/<name>` for GET and POST (every endpoint accepts both, §2.1), OPTIONS as a CORS preflight,
    /// and HEAD/PUT/DELETE/PATCH as 405. Parameters and credentials are handled here; handler errors are
    /// rendered in the API's format.
    func endpoint(_ group: RouteGroup, _ name: String, _ handler: @escaping @Sendable (EndpointCall) throws -> Reply) {
        let context = self
        group.on([.get, .post], "/" + name, maxBodyBytes: config.maxBodyBytes) { request in
            if let miss = Self.inexact(request, name) { return .response(miss) }
            do {
                let params = try RequestParameters(request, maxBodyBytes: context.config.maxBodyBytes)
                let user = try Credentials(store: context.store).authenticate(request, params)
                return try handler(EndpointCall(request: request, params: params, user: user))
            } catch {
                return .response(context.renderer.render(error, request))
            }
        }
        group.on(.options, "/" + name) { request in .response(Self.inexact(request, name) ?? WireResponse.preflight) }
        group.on([.head, .put, .delete, .patch], "/" + name) { request in
            .response(Self.inexact(request, name) ?? WireResponse.error(.methodNotAllowed))
        }
    }

    /// Paths match exactly (§1.3): the router ignores a trailing slash, this API answers it with 404.
    static func inexact(_ request: HTTPRequest, _ name: String) -> HTTPResponse? {
        request.path == request.mountPath + "/" + name ? nil : WireResponse.error(.unknownEndpoint(request.path))
    }

    /// Completes `parked` with the rendered result of an asynchronous store call.
    func finish<T>(_ parked: ParkedResponse, _ result: Result<T, any Error>, request: HTTPRequest,
                   render: (T) -> HTTPResponse) {
        switch result {
        case .success(let value): parked.complete(render(value))
        case .failure(let error): parked.complete(renderer.render(error, request))
        }
    }

    /// A parked reply for a write job: the worker thread is released while the group commit runs.
    /// The time-out only guards against a stuck writer; the client may retry a 503. A shutdown waits for
    /// the job's real outcome, since the queued job still commits.
    static func writeParking() -> ParkedResponse {
        ParkedResponse(timeout: .seconds(120), awaitsCompletionOnShutdown: true) {
            WireResponse.error(.unavailable("The database is busy; try again"))
        }
    }
}
