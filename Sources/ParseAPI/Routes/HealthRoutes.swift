import Core
import HTTP

/// `/health` (any method, no credentials) and `GET /serverInfo` (spec §16).
enum HealthRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.get, "/serverInfo", RouteOptions(masterOnly: true)) { _ in serverInfo() }
    }

    /// Answered before body parsing and credentials; the body is ignored. For HEAD the server sends the
    /// same headers (including the length) without the body.
    static func health(_ req: HTTPRequest, state: ParseHealthState) -> ParseReply {
        switch state {
        case .ok: return .ok(["status": "ok"])
        case .starting: return ParseReply(status: 503, body: ["status": "starting"], headers: [("Retry-After", "1")])
        case .error: return ParseReply(status: 503, body: ["status": "error"])
        }
    }

    static func serverInfo() -> ParseReply {
        let features: JSONObject = [
            "globalConfig": ["create": true, "read": true, "update": true, "delete": true],
            "hooks": ["create": false, "read": false, "update": false, "delete": false],
            "cloudCode": ["jobs": false],
            "logs": ["level": false, "size": false, "order": false, "until": false, "from": false],
            "push": ["immediatePush": false, "scheduledPush": false, "storedPushData": false, "pushAudiences": false,
                     "localization": false],
            "schemas": ["addField": true, "removeField": true, "addClass": true, "removeClass": true,
                        "clearAllDataFromClass": true, "exportClass": false, "editClassLevelPermissions": true,
                        "editPointerPermissions": true],
            "settings": ["securityCheck": false],
        ]
        return .ok(["parseServerVersion": "7.4.0", "features": .object(features),
                    "quartetVersion": .string(QuartetVersion.string)])
    }
}
