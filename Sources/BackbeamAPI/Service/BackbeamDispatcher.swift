import Foundation
import Core
import HTTP
import Auth
import Storage
import Logging

/// Takes every request under the Backbeam roots through the steps of §1.4, §2 and §3: address (prefix,
/// Host, default), CORS preflight, parameter decoding and the effective method, the project, the route
/// (by effective method), the signature with its time window and nonce, the session, then the endpoint;
/// and answers in Backbeam's format (JSON or JSONP, `no-store`, CORS), whatever happens.
final class BackbeamDispatcher: Sendable {
    let config: BackbeamConfig
    let projects: ProjectDirectory
    let store: any BackbeamStore
    let endpoints: EndpointTable
    let decoder: ParameterDecoder
    let verifier: SignatureVerifier
    let logger: Logger
    let tempDirectory: String
    /// Milliseconds since the epoch.
    let clock: @Sendable () -> Int64

    init(config: BackbeamConfig, projects: ProjectDirectory, store: any BackbeamStore, endpoints: EndpointTable,
         logger: Logger, tempDirectory: String, clock: @escaping @Sendable () -> Int64 = BackbeamClock.now) {
        self.config = config
        self.projects = projects
        self.store = store
        self.endpoints = endpoints
        self.decoder = ParameterDecoder(limits: ParameterLimits(maxParameters: config.maxParameters,
                                                                maxValueBytes: config.maxValueBytes))
        self.verifier = SignatureVerifier(policy: SignaturePolicy(windowSeconds: config.signatureWindowSeconds))
        self.logger = logger
        self.tempDirectory = tempDirectory
        self.clock = clock
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        if Self.hasRepeatedContentLength(request.headers) {
            // The HTTP layer accepts a Content-Length repeated with one value (RFC 9112 allows it); the
            // Backbeam API refuses any repetition and ends the connection (§2.5), the stricter answer to a
            // framing that proxies may read differently.
            var response = BackbeamResponses.error(BackbeamError(.invalidParameters, "Malformed request: repeated Content-Length"),
                                                   callback: nil)
            response.headers.set("Connection", "close")
            return response
        }
        if request.method == .options { return BackbeamResponses.preflight(request) }
        var fileParts: [MultipartPart] = []
        defer { Multipart.removeTemporaryFiles(fileParts) }
        let decoded: DecodedParameters
        do {
            decoded = try decode(request, fileParts: &fileParts)
        } catch {
            // Without decoded parameters there is no callback to wrap in: plain JSON (§2.3.3).
            return BackbeamResponses.error(backbeamError(error, request), callback: nil)
        }
        let callback = config.jsonp ? decoded.callback : nil
        do {
            let reply = try dispatch(request, decoded, fileParts: fileParts)
            if var response = reply.response {
                response.headers.set("Access-Control-Allow-Origin", "*")
                return response
            }
            return BackbeamResponses.json(reply.body, status: reply.status, callback: callback)
        } catch let refusal as MethodRefusal {
            return BackbeamResponses.error(BackbeamError(.methodNotAllowed), callback: callback, allow: refusal.allowed)
        } catch {
            return BackbeamResponses.error(backbeamError(error, request), callback: callback)
        }
    }

    static func hasRepeatedContentLength(_ headers: HTTPHeaders) -> Bool {
        let values = headers.values("Content-Length")
        return values.count > 1 || values.contains { $0.utf8.contains(UInt8(ascii: ",")) }
    }

    /// 405 with the methods the path takes.
    struct MethodRefusal: Error {
        let allowed: [String]
    }

    private func dispatch(_ request: HTTPRequest, _ decoded: DecodedParameters, fileParts: [MultipartPart]) throws -> BackbeamReply {
        let target = APITarget.resolve(request, config: config)
        guard let name = target.project, let env = target.env, let project = try projects.project(named: name),
              let space = project.spaces[env], let nonces = project.nonces[env] else {
            throw BackbeamError(.projectNotFound)
        }
        let handler: EndpointHandler, options: EndpointOptions, pathParameters: PathParameters
        switch endpoints.match(method: decoded.effectiveMethod, rawPath: target.rawPath) {
        case .route(let h, let o, let p): (handler, options, pathParameters) = (h, o, p)
        case .methodNotAllowed(let allowed): throw MethodRefusal(allowed: allowed)
        case .notFound: throw BackbeamError(.notFound)
        }
        let now = clock()
        var authUser: String?
        if options.signed {
            let verified = try verifier.verify(parameters: decoded.parameters, method: decoded.effectiveMethod,
                                               rawPath: target.rawPath, now: now,
                                               signingSecretForKey: { project.signingSecret(for: $0, env: env) },
                                               nonces: nonces)
            if let change = TokenChangeHeaders(request.headers) { repoint(change, space: space, request: request) }
            if let auth = verified.auth {
                let minCreatedAt = config.sessionMaxAgeDays > 0 ? now - Int64(config.sessionMaxAgeDays) * 86_400_000 : nil
                authUser = try store.sessionUser(space: space, tokenHash: TokenHasher.hash(auth), minCreatedAt: minCreatedAt)
                // The SDKs keep sending the previous user's auth while a new user logs in or signs up.
                if authUser == nil && !options.establishesSession { throw BackbeamError(.invalidAuthCode) }
            }
        }
        let call = BackbeamCall(request: request, project: project, env: env, space: space, parameters: decoded.parameters,
                                method: decoded.effectiveMethod, pathParameters: pathParameters, fileParts: fileParts,
                                authUser: authUser, now: now)
        return try handler(call)
    }

    /// Moves the GCM subscriptions of Android's old tokens to its new one (§5.5.6), in a transaction of its
    /// own; the outcome never changes the request's answer.
    private func repoint(_ change: TokenChangeHeaders, space: SpaceID, request: HTTPRequest) {
        do {
            _ = try store.repointTokens(space: space, gateway: .gcm, old: change.old, new: change.new)
        } catch {
            logger.warning("backbeam push token change failed", metadata: ["error": "\(error)", "requestID": "\(request.requestID)"])
        }
    }

    /// Query string and body (urlencoded or multipart) as parameters (§2.1, §2.2).
    private func decode(_ request: HTTPRequest, fileParts: inout [MultipartPart]) throws -> DecodedParameters {
        let contentType = request.headers["Content-Type"]
        let body: ParameterBody
        switch ParameterBody.kind(forContentType: contentType) {
        case .none:
            body = .none
        case .urlencoded:
            body = .urlencoded(try request.body.readAll(limit: config.maxBodyBytes))
        case .multipart:
            guard let contentType, let boundary = Multipart.boundary(fromContentType: contentType) else {
                throw BackbeamError(.invalidParameters, "The multipart body has no boundary")
            }
            let parts: [MultipartPart]
            do {
                parts = try Multipart.parse(request.body, boundary: boundary, maxParts: config.maxParameters + 1,
                                            maxPartBytes: max(config.maxBodyBytes, config.maxValueBytes, config.maxUploadBytes),
                                            inMemoryThreshold: 1 << 20, tempDirectory: tempDirectory)
            } catch {
                throw BackbeamError(.invalidParameters, "The multipart body is malformed")
            }
            var fields: [MultipartField] = []
            for part in parts {
                if part.filename != nil {
                    fileParts.append(part)
                    fields.append(MultipartField(name: part.name ?? "", value: [], filename: part.filename))
                } else {
                    defer { part.body.removeTemporaryFile() }
                    let value = try part.body.readAll(limit: config.maxValueBytes)
                    fields.append(MultipartField(name: part.name ?? "", value: value))
                }
            }
            body = .multipart(fields)
        }
        return try decoder.decode(httpMethod: request.method.rawValue, query: Array(request.query.utf8), body: body)
    }

    /// Any error as the Backbeam error answered; internal causes go to the log only (§2.4).
    func backbeamError(_ error: any Error, _ request: HTTPRequest) -> BackbeamError {
        switch error {
        case let error as BackbeamError: return error
        case let error as BQLError: return error.backbeamError
        case let error as ParameterError: return error.backbeamError
        case let error as SignatureError: return error.backbeamError
        case HTTPError.payloadTooLarge: return BackbeamError(.requestTooLarge, "The request body is too large")
        case let error as StorageError:
            switch error {
            case .busy, .locked, .closed, .interrupted:
                logger.warning("backbeam storage busy", metadata: ["error": "\(error)", "requestID": "\(request.requestID)"])
                return BackbeamError(.serviceUnavailable)
            default:
                break
            }
        default:
            break
        }
        logger.error("backbeam request failed", metadata: ["error": "\(String(describing: error))",
                                                           "requestID": "\(request.requestID)"])
        return BackbeamError(.internalError)
    }
}
