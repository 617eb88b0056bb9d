/// What one `await` watches.
struct AwaitWatch: Sendable, Hashable {
    /// The submitted list token, when `list_datastores` was sent.
    let listToken: String?
    /// Handle → revision cursors, in the order received.
    let cursors: [(handle: String, rev: Int64)]

    static func == (a: AwaitWatch, b: AwaitWatch) -> Bool {
        a.listToken == b.listToken && a.cursors.elementsEqual(b.cursors) { $0.handle == $1.handle && $0.rev == $1.rev }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(listToken)
        for cursor in cursors {
            hasher.combine(cursor.handle)
            hasher.combine(cursor.rev)
        }
    }
}

/// A parked `await` as the change feed holds it: the caller and what it watches.
struct AwaitRequest: Sendable {
    let user: DatastoreUser
    let watch: AwaitWatch
}
