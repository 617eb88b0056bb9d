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
    /// Repeated uids are written once, in their first position.
    public static func event(handle: String, uids: [Int64]) -> ChangeEvent {
        // Built directly: every delta publishes one, on the writer thread, nearly always with a single uid
        // (the owner), and a Set plus an array of strings and a join cost about 4,000 instructions.
        var detail = handle
        if uids.count <= 16 {
            for (i, uid) in uids.enumerated() where !uids[..<i].contains(uid) {
                detail += " "
                detail += String(uid)
            }
        } else {
            var seen = Set<Int64>()
            for uid in uids where seen.insert(uid).inserted {
                detail += " "
                detail += String(uid)
            }
        }
        return ChangeEvent(topic: topic, detail: detail)
    }

    /// Decodes an event's detail; nil for other topics or malformed details.
    public static func decode(_ event: ChangeEvent) -> ChangeNotice? {
        guard event.topic == topic else { return nil }
        let parts = event.detail.split(separator: " ")
        guard let handle = parts.first else { return nil }
        return ChangeNotice(handle: String(handle), uids: parts.dropFirst().compactMap { Int64($0) })
    }
}
