import Core

/// The push gateways of §5.5.1.
public enum PushGateway: String, Sendable, CaseIterable {
    /// Apple Push Notification service (tokens: standard Base64 of the 32 raw bytes, from iOS).
    case apn
    /// Google Cloud Messaging (registration ids as sent by Android).
    case gcm
}

/// The options of `POST /push/send` (§5.5.4), validated, and the payload each gateway gets.
public struct PushMessage: Sendable, Equatable {
    /// `apn_alert`.
    public var alert: String?
    /// `apn_badge`.
    public var badge: Int?
    /// `apn_sound`.
    public var sound: String?
    /// `apn_payload_<key>`: custom top-level keys of the APNs payload, in arrival order.
    public var apnPayload: [(String, String)] = []
    /// `gcm_collapse_key` (defaults to `apn_alert`).
    public var collapseKey: String?
    /// `gcm_time_to_live` in seconds.
    public var timeToLive: Int?
    /// `gcm_delay_while_idle`.
    public var delayWhileIdle: Bool?
    /// `gcm_data_<key>`, in arrival order.
    public var gcmData: [(String, String)] = []

    /// No options.
    public init() {}

    public static func == (a: PushMessage, b: PushMessage) -> Bool {
        a.alert == b.alert && a.badge == b.badge && a.sound == b.sound && a.collapseKey == b.collapseKey
            && a.timeToLive == b.timeToLive && a.delayWhileIdle == b.delayWhileIdle
            && a.apnPayload.elementsEqual(b.apnPayload, by: ==) && a.gcmData.elementsEqual(b.gcmData, by: ==)
    }

    /// The APNs payload: `{"aps":{"alert":..,"badge":N,"sound":..},"<key>":"<value>",...}`, absent options
    /// omitted.
    public func apnPayloadJSON() -> JSONObject {
        var aps = JSONObject()
        if let alert { aps["alert"] = .string(alert) }
        if let badge { aps["badge"] = .int(badge) }
        if let sound { aps["sound"] = .string(sound) }
        var payload = JSONObject([("aps", .object(aps))])
        // A custom key never replaces `aps`.
        for (key, value) in apnPayload where key != "aps" { payload[key] = .string(value) }
        return payload
    }

    /// The GCM payload: `{"registration_ids":[...],"data":{...},"collapse_key":..,"time_to_live":N,
    /// "delay_while_idle":bool}`, absent options omitted.
    public func gcmPayloadJSON(tokens: [String]) -> JSONObject {
        var data = JSONObject()
        for (key, value) in gcmData { data[key] = .string(value) }
        var payload = JSONObject([("registration_ids", .array(tokens.map(JSON.string))), ("data", .object(data))])
        if let key = collapseKey ?? alert { payload["collapse_key"] = .string(key) }
        if let timeToLive { payload["time_to_live"] = .int(timeToLive) }
        if let delayWhileIdle { payload["delay_while_idle"] = .bool(delayWhileIdle) }
        return payload
    }

    /// The payload for `gateway` as JSON text.
    public func payload(for gateway: PushGateway, tokens: [String]) -> String {
        switch gateway {
        case .apn: return JSON.object(apnPayloadJSON()).serialized()
        case .gcm: return JSON.object(gcmPayloadJSON(tokens: tokens)).serialized()
        }
    }
}

/// One notification of the push outbox (§5.5.3).
public struct PushNotification: Sendable, Equatable {
    /// Outbox row id.
    public var id: Int64
    /// The channel it was sent to.
    public var channel: String
    /// The gateway.
    public var gateway: PushGateway
    /// The subscribers' tokens.
    public var tokens: [String]
    /// The payload as JSON text.
    public var payload: String
    /// When it was queued (ms).
    public var createdAt: Int64
    /// `queued`, `logged`, `sent` or `failed`.
    public var state: String

    /// A notification.
    public init(id: Int64, channel: String, gateway: PushGateway, tokens: [String], payload: String, createdAt: Int64,
                state: String) {
        self.id = id
        self.channel = channel
        self.gateway = gateway
        self.tokens = tokens
        self.payload = payload
        self.createdAt = createdAt
        self.state = state
    }
}
