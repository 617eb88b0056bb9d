import Logging

/// Hands the notifications of the push outbox to a gateway (§5.5.3). Called after the transaction that
/// queued them committed, off the request path; returns the state to record (`logged`, `sent`). A throw
/// records `failed` and is logged. Real APNs/FCM delivery is a later phase (§11).
public protocol PushSender: Sendable {
    /// Sends one notification.
    func send(_ notification: PushNotification) throws -> String
}

/// The default sender: one log line per notification, tokens truncated to their first 8 characters
/// (they address devices).
public struct LogPushSender: PushSender {
    let logger: Logger

    /// A sender writing to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    public func send(_ notification: PushNotification) throws -> String {
        let tokens = notification.tokens.map { String($0.prefix(8)) + "…" }.joined(separator: ",")
        logger.info("backbeam push", metadata: ["channel": "\(notification.channel)", "gateway": "\(notification.gateway.rawValue)",
                                                "tokens": "\(tokens)", "outboxID": "\(notification.id)"])
        return "logged"
    }
}
