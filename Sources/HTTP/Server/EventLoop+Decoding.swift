extension EventLoop {
    /// How often a loop with requests waiting for the decoding budget looks for room again. Room appears
    /// when a worker finishes a large request, which posts nothing to the loops; a few milliseconds of
    /// delay is nothing next to decoding a body of 64 KiB or more.
    static let decodingRetryMillis: Int32 = 5

    /// Admits a complete request needing `charge` bytes of the decoding budget now, or queues it (first
    /// come, first served on this loop: a later small request does not overtake a waiting large one).
    func admitDecoding(_ connection: Connection, charge: Int) -> Bool {
        if decodingQueue.isEmpty, context.decodingBudget.tryAcquire(charge) { return true }
        decodingQueue.append((connection, connection.sequence))
        return false
    }

    /// Admits queued requests in order while the budget has room; drops entries whose request was
    /// answered (503 after waiting) or whose connection closed meanwhile.
    func admitQueuedDecoding() {
        var admitted = 0
        for entry in decodingQueue {
            let connection = entry.connection
            guard connection.phase == .queued, connection.sequence == entry.sequence,
                  let charge = connection.current?.decodingCharge, charge > 0 else {
                admitted += 1
                continue
            }
            guard context.decodingBudget.tryAcquire(charge) else { break }
            admitted += 1
            connection.admitted(charge: charge)
        }
        decodingQueue.removeFirst(admitted)
    }
}
