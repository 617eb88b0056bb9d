import HTTP

extension BackbeamDispatcher {
    /// Answers a `GET` whose endpoint prepares its answer at once (`EndpointOptions.attempt`) on the
    /// HTTP I/O thread that read it: the steps of `handle` for that request without the hand-off to a worker.
    /// Nil for every other request and whenever a step would fail or wait (JSONP, `auth`, a token change,
    /// a project not in memory, no read connection free); `handle` then answers on a worker.
    ///
    /// For a signed endpoint the read runs before the signature check, and its answer is kept only when the signature,
    /// time and nonce pass. The nonce is remembered only by a successful check, and once it is the answer is
    /// sent, so a request declined here reaches `handle` with its nonce unused. Every step is bounded: a
    /// parameter decode within the configured limits, an HMAC, the nonce cache's shard lock, a point read.
    func attempt(_ request: HTTPRequest) -> HTTPResponse? {
        // The route first: most requests are not for an endpoint with an attempt, and finding that out
        // must cost them little (the worker decodes their parameters again).
        guard request.method == .get, request.body.count == 0 else { return nil }
        let target = APITarget.resolve(request, config: config)
        guard case .route(_, let options, let pathParameters) = endpoints.match(method: "GET", rawPath: target.rawPath),
              let prepare = options.attempt,
              !Self.hasRepeatedContentLength(request.headers),
              case .none = ParameterBody.kind(forContentType: request.headers["Content-Type"]),
              let decoded = try? decoder.decode(httpMethod: "GET", query: Array(request.query.utf8), body: .none),
              decoded.effectiveMethod == "GET",
              let name = target.project, let env = target.env, let project = projects.projectInMemory(named: name),
              let space = project.spaces[env], let nonces = project.nonces[env] else { return nil }
        // JSONP, sessions and token changes belong to signed endpoints (`dispatch`); unsigned ones (downloads)
        // skip them there too.
        if options.signed {
            guard !config.jsonp || decoded.callback == nil, decoded.parameters.nonEmptyValue("auth") == nil,
                  TokenChangeHeaders(request.headers) == nil else { return nil }
        }
        let now = clock()
        let call = BackbeamCall(request: request, project: project, env: env, space: space,
                                parameters: decoded.parameters, method: "GET", pathParameters: pathParameters,
                                fileParts: [], authUser: nil, now: now)
        guard let reply = prepare(call) else { return nil }
        guard options.signed else {
            // An unsigned endpoint's attempt answers a whole response, which `handle` sends with this header.
            // The reply is consumed: a copy out of it shared its header list, and setting the header copied it.
            guard var response = (consume reply).response else { return nil }
            response.headers.set("Access-Control-Allow-Origin", "*")
            return response
        }
        guard reply.response == nil else { return nil }
        do {
            _ = try verifier.verify(parameters: decoded.parameters, method: "GET", rawPath: target.rawPath, now: now,
                                    signingSecretForKey: { project.signingSecret(for: $0, env: env) }, nonces: nonces)
        } catch {
            // Refused without remembering the nonce: `handle` checks again and answers the error.
            return nil
        }
        return BackbeamResponses.json(reply.body, status: reply.status, callback: nil)
    }
}
