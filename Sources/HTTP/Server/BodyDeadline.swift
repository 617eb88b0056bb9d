/// The deadline of a request body still being received: a minimum rate with bounded slack.
///
/// When the head has arrived the body gets `slack` nanoseconds. Every byte that arrives then buys
/// `nanosPerByte` more (1 s / `server.minBodyBytesPerSecond`), but the deadline never runs more than `slack`
/// ahead of now. So a body must, after its first `slack`, keep up the minimum rate on average, and bytes sent
/// early in a burst buy at most `slack` of silence later. A client sending a byte every few seconds runs out
/// after about `slack`, however long it goes on; an upload of any size at or above the rate never runs out,
/// and may pause for up to `slack` (a mobile link changing cells) without losing it.
struct BodyDeadline {
    /// How far ahead of now the deadline may be: the time a body gets to start and the longest pause.
    let slack: UInt64
    /// Time each received byte buys; 0 turns the rate off and `slack` becomes a deadline for the whole body.
    let nanosPerByte: UInt64

    /// The rate and slack of a server configuration (`minBytesPerSecond` 0: no rate).
    init(slackNanos: UInt64, minBytesPerSecond: Int) {
        slack = slackNanos
        nanosPerByte = minBytesPerSecond > 0 ? 1_000_000_000 / UInt64(minBytesPerSecond) : 0
    }

    /// The deadline when the head of a request with a body has arrived at `now`.
    func start(now: UInt64) -> UInt64 {
        now &+ slack
    }

    /// The deadline after `bytes` more arrived at `now`, given the current one.
    func extended(_ deadline: UInt64, bytes: Int, now: UInt64) -> UInt64 {
        let cap = now &+ slack
        let (credit, overflow) = UInt64(max(0, bytes)).multipliedReportingOverflow(by: nanosPerByte)
        if overflow { return cap }
        let (extended, past) = deadline.addingReportingOverflow(credit)
        return past ? cap : min(extended, cap)
    }
}
