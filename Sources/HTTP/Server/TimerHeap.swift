/// A min-heap of deadlines for parked requests and long-lived streams. Entries are never removed early: a
/// fired entry whose connection moved on is recognised by its token and ignored, which keeps completion O(1).
struct TimerHeap {
    /// What a deadline is for.
    enum Kind {
        /// A parked request's time-out.
        case park
        /// A stream's next heartbeat check.
        case heartbeat
        /// A stream's deadline check.
        case streamDeadline
    }

    struct Entry {
        let deadline: UInt64
        let token: StreamToken
        var kind: Kind = .park
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var nextDeadline: UInt64? { entries.first?.deadline }

    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if entries.isEmpty { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count && entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count && entries[right].deadline < entries[smallest].deadline { smallest = right }
            if smallest == parent { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
