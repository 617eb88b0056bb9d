import Core

/// `/push/subscribe`, `/push/unsubscribe`, `/push/unsubscribe-all`, `/push/subscribed-channels` and
/// `/push/send` (§5.5).
enum PushRoutes {
    /// Longest token (§5.5.1).
    static let maxTokenLength = 4096
    /// Longest channel name (§5.5.1).
    static let maxChannelLength = 255

    static func register(on table: EndpointTable, _ service: ServiceContext) {
        let success = JSON.object(ResponseBodies.success()).serializedBytes()
        table.on("POST", "/push/subscribe") { call in
            let (gateway, token) = try device(call)
            try service.store.subscribe(space: call.space, gateway: gateway, token: token, channels: try channels(call),
                                        now: call.now)
            return BackbeamReply(body: success)
        }
        table.on("POST", "/push/unsubscribe") { call in
            let (gateway, token) = try device(call)
            try service.store.unsubscribe(space: call.space, gateway: gateway, token: token, channels: try channels(call))
            return BackbeamReply(body: success)
        }
        table.on("POST", "/push/unsubscribe-all") { call in
            let (gateway, token) = try device(call)
            try service.store.unsubscribe(space: call.space, gateway: gateway, token: token, channels: nil)
            return BackbeamReply(body: success)
        }
        table.on("GET", "/push/subscribed-channels") { call in
            let (gateway, token) = try device(call)
            let list = try service.store.subscribedChannels(space: call.space, gateway: gateway, token: token)
            return BackbeamReply(body: JSON.object(ResponseBodies.success([("channels", .array(list.map(JSON.string)))]))
                .serializedBytes())
        }
        table.on("POST", "/push/send") { call in
            guard let channel = call.parameters.value("channel"), isChannel(channel) else {
                throw BackbeamError(.invalidParameters, "The channel parameter is missing or invalid")
            }
            let message = try PushOptions.parse(call.parameters)
            if try service.store.queuePush(space: call.space, channel: channel, message: message, now: call.now) > 0 {
                service.outboxes.pushQueued()
            }
            return BackbeamReply(body: success)
        }
    }

    /// `gateway` (`apn` or `gcm`) and `token` (1–4096 characters), else 400 `InvalidParameters`.
    static func device(_ call: BackbeamCall) throws -> (PushGateway, String) {
        guard let gateway = call.parameters.value("gateway").flatMap(PushGateway.init(rawValue:)) else {
            throw BackbeamError(.invalidParameters, "The gateway parameter must be apn or gcm")
        }
        guard let token = call.parameters.value("token"), !token.isEmpty, token.count <= maxTokenLength else {
            throw BackbeamError(.invalidParameters, "The token parameter is missing or too long")
        }
        return (gateway, token)
    }

    /// `channels`: one or more channel names (a single value is a one-element list).
    static func channels(_ call: BackbeamCall) throws -> [String] {
        let list = call.parameters.values("channels")
        guard !list.isEmpty, list.allSatisfy(isChannel) else {
            throw BackbeamError(.invalidParameters, "The channels parameter must hold 1 to 255 characters per channel")
        }
        return list
    }

    static func isChannel(_ name: String) -> Bool { !name.isEmpty && name.count <= maxChannelLength }
}

/// The options of `/push/send` (§5.5.4).
enum PushOptions {
    static func parse(_ parameters: BackbeamParameters) throws -> PushMessage {
        var message = PushMessage()
        message.alert = parameters.value("apn_alert")
        message.sound = parameters.value("apn_sound")
        message.collapseKey = parameters.value("gcm_collapse_key")
        if let badge = parameters.value("apn_badge") {
            guard let n = DataParameters.decimal(badge), n <= Int(Int32.max) else {
                throw BackbeamError(.invalidParameters, "apn_badge must be a decimal number")
            }
            message.badge = n
        }
        if let ttl = parameters.value("gcm_time_to_live") {
            guard let n = DataParameters.decimal(ttl), n <= Int(Int32.max) else {
                throw BackbeamError(.invalidParameters, "gcm_time_to_live must be a decimal number of seconds")
            }
            message.timeToLive = n
        }
        if let idle = parameters.value("gcm_delay_while_idle") {
            switch idle.lowercased() {
            case "true", "1": message.delayWhileIdle = true
            case "false", "0": message.delayWhileIdle = false
            default: throw BackbeamError(.invalidParameters, "gcm_delay_while_idle must be true or false")
            }
        }
        for name in parameters.names {
            if name.hasPrefix("apn_payload_"), name.count > 12, let value = parameters.value(name) {
                message.apnPayload.append((String(name.dropFirst(12)), value))
            } else if name.hasPrefix("gcm_data_"), name.count > 9, let value = parameters.value(name) {
                message.gcmData.append((String(name.dropFirst(9)), value))
            }
        }
        return message
    }
}
