import HTTP

/// Every other path under the API's prefixes: 404 `{"error": "Unknown endpoint: <path>"}` (§1.3).
enum UnknownEndpointRoute {
    static let allMethods: [HTTPMethod] = [.get, .post, .put, .delete, .head, .options, .patch]

    static func register(on group: RouteGroup) {
        let handler: Handler = { request in .response(WireResponse.error(.unknownEndpoint(request.path))) }
        group.on(allMethods, "/*", handler)
        group.on(allMethods, "/", handler)
    }
}
