import ChangeFeed
import Storage

/// The change-event topics of datastores, which `await` watches (§6.9): one per handle, whose events
/// carry the datastore's revision after the commit, and one per user whose `list_datastores` may differ.
enum DatastoreTopics {
    /// Topic of one datastore's changes.
    static func handle(_ handle: String) -> String { "ds.h." + handle }

    /// Topic of the changes to one user's datastore list.
    static func user(_ uid: Int64) -> String { "ds.u." + String(uid) }

    /// Queues the events of a write that changed `handle` (now at `rev`; `Int64.max` for a deletion, which
    /// every cursor must see) and may have changed the lists of `uids`; they are published after the commit.
    static func publish(handle: String, rev: Int64, uids: [Int64], in ctx: WriteContext) {
        events(handle: handle, rev: rev, uids: uids) { ctx.publish($0) }
    }

    /// The events of such a write, in order: the handle's, then one per distinct uid (first occurrence).
    static func events(handle: String, rev: Int64, uids: [Int64], _ emit: (ChangeEvent) -> Void) {
        emit(ChangeEvent(topic: Self.handle(handle), sequence: rev))
        // Built without a Set: every delta publishes, on the writer thread, nearly always for one uid (the
        // owner), and hashing into a set costs more than this scan.
        if uids.count <= 16 {
            for (i, uid) in uids.enumerated() where !uids[..<i].contains(uid) {
                emit(ChangeEvent(topic: user(uid), sequence: rev))
            }
        } else {
            var seen = Set<Int64>()
            for uid in uids where seen.insert(uid).inserted {
                emit(ChangeEvent(topic: user(uid), sequence: rev))
            }
        }
    }

    /// What an await watches: each cursor's handle from its revision on, and the user's list (any change)
    /// when a list token was submitted.
    static func cursors(for watch: AwaitWatch, uid: Int64) -> [FeedCursor] {
        var cursors = watch.cursors.map { FeedCursor(topic: handle($0.handle), after: $0.rev) }
        if watch.listToken != nil { cursors.append(.any(user(uid))) }
        return cursors
    }
}
