import HTTP
import Storage
import Logging

/// The group error renderer: every error, including the server's early `HTTPError`s, in this API's format.
/// Internal causes go to the log only.
struct DatastoreErrorRenderer: Sendable {
    let logger: Logger

    func render(_ error: any Error, _ request: HTTPRequest?) -> HTTPResponse {
        switch error {
        case let error as DatastoreAPIError:
            return WireResponse.error(error)
        case let error as DatastoreStoreError:
            switch error {
            case .dsidInUse: return WireResponse.error(.badRequest("Datastore ID already in use"))
            case .invalidDelta(let message): return WireResponse.error(.badRequest(message))
            case .invalidUserName: return WireResponse.error(.badRequest("Invalid user name"))
            }
        case let error as HTTPError:
            return render(httpError: error, request)
        case let error as StorageError where Self.isTransient(error):
            // Clients retry 5xx with back-off; only lasting failures are worth a 500.
            logger.warning("datastore storage busy", metadata: ["error": "\(error)"])
            return WireResponse.error(.unavailable("The database is busy; try again"))
        default:
            logger.error("datastore request failed", metadata: [
                "error": "\(String(describing: error))", "requestID": "\(request?.requestID ?? "-")",
            ])
            return WireResponse.single("error", "Internal server error", status: .internalServerError)
        }
    }

    /// Storage conditions that go away on their own: lock contention after retries, or shutting down.
    static func isTransient(_ error: StorageError) -> Bool {
        switch error {
        case .busy, .locked, .closed, .interrupted: return true
        default: return false
        }
    }

    private func render(httpError: HTTPError, _ request: HTTPRequest?) -> HTTPResponse {
        switch httpError {
        case .badRequest(let message): return WireResponse.error(.badRequest(message.isEmpty ? "Bad request" : message))
        case .notFound: return WireResponse.error(.unknownEndpoint(request?.path ?? ""))
        case .methodNotAllowed: return WireResponse.error(.methodNotAllowed)
        case .payloadTooLarge: return WireResponse.error(.payloadTooLarge)
        case .uriTooLong: return WireResponse.single("error", "Request URI too long", status: .uriTooLong)
        case .headerFieldsTooLarge:
            return WireResponse.single("error", "Request headers too large", status: .headerFieldsTooLarge)
        case .unsupportedMediaType: return WireResponse.error(.badRequest("Unsupported Content-Type"))
        case .requestTimeout: return WireResponse.single("error", "Request timeout", status: .requestTimeout)
        case .rangeNotSatisfiable: return WireResponse.error(.badRequest("Range not satisfiable"))
        case .expectationFailed: return WireResponse.single("error", "Expectation failed", status: .expectationFailed)
        case .serviceUnavailable: return WireResponse.error(.unavailable("Service unavailable"))
        }
    }
}
