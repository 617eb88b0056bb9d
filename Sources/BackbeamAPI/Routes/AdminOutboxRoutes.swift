import Core
import HTTP

/// `GET .../projects/<p>/<env>/outbox/email?to=&limit=` and `.../outbox/push?channel=&limit=` (§5.6): the
/// recorded mails and notifications, newest first, as a JSON array.
enum AdminOutboxRoutes {
    /// Rows answered when `limit` is absent or invalid, and the most ever answered.
    static let defaultLimit = 100
    static let maxLimit = 1000

    static func register(_ route: AdminRoutes.Register, _ context: ServiceContext) {
        route(.get, "/projects/:project/:env/outbox/email") { request, params in
            let (_, _, space) = try AdminRoutes.environment(request, context)
            let mails = try context.store.mailOutbox(space: space, recipient: params["to"], limit: limit(params))
            return array(mails.map { mail in
                JSON.object(JSONObject([("id", .string(String(mail.id))), ("to", .string(mail.recipient)),
                                        ("subject", .string(mail.subject)), ("text", .string(mail.body)),
                                        ("kind", .string(mail.kind)), ("created_at", .number(JSONNumber(mail.createdAt))),
                                        ("state", .string(mail.state)), ("attempts", .int(mail.attempts))]))
            })
        }
        route(.get, "/projects/:project/:env/outbox/push") { request, params in
            let (_, _, space) = try AdminRoutes.environment(request, context)
            let rows = try context.store.pushOutbox(space: space, channel: params["channel"], onlyQueued: false,
                                                    limit: limit(params))
            return array(rows.map { row in
                JSON.object(JSONObject([("id", .string(String(row.id))), ("channel", .string(row.channel)),
                                        ("gateway", .string(row.gateway.rawValue)),
                                        ("tokens", .array(row.tokens.map(JSON.string))),
                                        ("payload", (try? JSONParser.parse(row.payload)) ?? .string(row.payload)),
                                        ("created_at", .number(JSONNumber(row.createdAt))), ("state", .string(row.state))]))
            })
        }
    }

    static func limit(_ params: AdminParameters) -> Int {
        min(DataParameters.decimal(params["limit"]) ?? defaultLimit, maxLimit)
    }

    static func array(_ items: [JSON]) -> HTTPResponse {
        var response = HTTPResponse.json(.ok, bytes: JSON.array(items).serializedBytes())
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
