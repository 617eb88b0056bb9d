import Storage

/// The change event the write jobs publish after a commit that changes a datastore (put, create, delete,
/// ACL change): which handle changed and whose list tokens may have changed. `AwaitHub` decodes it.
public struct ChangeNotice: Sendable, Equatable {
    /// The ChangeBus topic of every datastore change.
    public static let topic = "datastore"

    /// The datastore's handle.
    public let handle: String
    /// Users whose `list_datastores` may differ now (owner and `u<uid>` grantees before and after).
    public let uids: [Int64]

    /// Encodes a notice as `"<handle> <uid> <uid> ..."`: handles are dbase64, so a space separates safely.
    public static func event(handle: String, uids: [Int64]) -> ChangeEvent {
        var seen = Set<Int64>()
        let unique = uids.filter { seen.insert($0).inserted }
        return ChangeEvent(topic: topic, detail: ([handle] + unique.map(String.init)).joined(separator: " "))
    }

    /// Decodes an event's detail; nil for other topics or malformed details.
    public static func decode(_ event: ChangeEvent) -> ChangeNotice? {
        guard event.topic == topic else { return nil }
        let parts = event.detail.split(separator: " ")
        guard let handle = parts.first else { return nil }
        return ChangeNotice(handle: String(handle), uids: parts.dropFirst().compactMap { Int64($0) })
    }
}
