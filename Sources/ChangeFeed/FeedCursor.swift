/// One topic a waiter watches and the last sequence it has seen: a change event of that topic with a
/// higher sequence wakes the waiter.
///
/// Topics and sequences are the publishers' (`Storage.ChangeEvent`): a topic names what changed (`ds.h.<handle>`,
/// a Couch database...), a sequence orders its changes (a revision, an update sequence). A publisher whose
/// change concerns every waiter of a topic, whatever its cursor (a deletion), publishes `Int64.max`.
public struct FeedCursor: Sendable, Hashable {
    /// The change-event topic.
    public var topic: String
    /// The last sequence seen: only events with a higher sequence wake the waiter.
    public var after: Int64

    /// Watches `topic` from `after` on.
    public init(topic: String, after: Int64) {
        self.topic = topic
        self.after = after
    }

    /// Watches `topic` with no position: every event of it wakes the waiter (events carry sequences above
    /// `Int64.min`).
    public static func any(_ topic: String) -> FeedCursor {
        FeedCursor(topic: topic, after: .min)
    }
}
