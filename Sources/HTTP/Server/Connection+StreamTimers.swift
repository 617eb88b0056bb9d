/// The event loop's timers of a long-lived stream: when it last wrote, its heartbeat and its deadline.
/// A class, so that a connection without one (nearly all of them) holds a single pointer for it.
final class StreamTimers {
    var heartbeat: (nanos: UInt64, bytes: [UInt8])?
    /// The deadline's length, whether it counts from the producer's last chunk, and when it was set.
    var deadline: (nanos: UInt64, sinceLastWrite: Bool, setAt: UInt64)?
    /// A heartbeat check is in the timer heap (one at a time per stream).
    var heartbeatArmed = false
    /// Last output of any kind (producer chunk or heartbeat): heartbeats count silence from here.
    var lastOutput: UInt64
    /// Last chunk of the producer: a deadline `sinceLastWrite` counts from here.
    var lastWrite: UInt64

    init(now: UInt64) {
        lastOutput = now
        lastWrite = now
    }

    func producerWrote(at now: UInt64) {
        lastOutput = now
        lastWrite = now
    }

    /// When the deadline passes, if there is one.
    var deadlineDue: UInt64? {
        guard let deadline else { return nil }
        return (deadline.sinceLastWrite ? lastWrite : deadline.setAt) &+ deadline.nanos
    }
}

extension Connection {
    /// Whether `token` names the stream this connection is sending now.
    private func isOpenStream(_ token: StreamToken) -> Bool {
        phase == .writing && token.sequence == sequence && stream != nil && !streamEnded
    }

    /// The producer asked for a heartbeat or a deadline (`StreamWriter.heartbeat`, `endAfter`).
    func streamTimerSet(_ timer: StreamTimer, token: StreamToken) {
        guard isOpenStream(token) else { return }
        let now = loop.now
        let timers = streamTimers ?? StreamTimers(now: current?.responseStarted ?? now)
        switch timer {
        case .heartbeat(let nanos, let bytes):
            timers.heartbeat = (nanos, bytes)
            if !timers.heartbeatArmed {
                timers.heartbeatArmed = true
                loop.timers.insert(.init(deadline: max(timers.lastOutput &+ nanos, now), token: token, kind: .heartbeat))
            }
        case .deadline(let nanos, let sinceLastWrite):
            timers.deadline = (nanos, sinceLastWrite, now)
            loop.timers.insert(.init(deadline: timers.deadlineDue ?? now, token: token, kind: .streamDeadline))
        }
        streamTimers = timers
        // A feed waiting with all its output sent is exempt from the idle time-out from now on.
        if out.count == outOffset && outExtra.isEmpty && file == nil { deadline = 0 }
    }

    /// A heartbeat check is due: write the heartbeat when the stream was silent for its interval (and the
    /// client reads what it gets), then schedule the next check.
    func heartbeatDue(_ token: StreamToken, now: UInt64) {
        guard isOpenStream(token), let timers = streamTimers, let heartbeat = timers.heartbeat else {
            if token.sequence == sequence { streamTimers?.heartbeatArmed = false }
            return
        }
        let due = timers.lastOutput &+ heartbeat.nanos
        var next = due
        if now >= due {
            // With output still queued the client is not reading; piling heartbeats behind it helps no one.
            if out.count == outOffset && outExtra.isEmpty {
                appendStreamBytes(heartbeat.bytes)
                timers.lastOutput = now
            }
            next = now &+ heartbeat.nanos
        }
        loop.timers.insert(.init(deadline: next, token: token, kind: .heartbeat))
        if now >= due { flush() }
    }

    /// A deadline check is due: end the stream when its deadline passed, else check again then.
    func streamDeadlineDue(_ token: StreamToken, now: UInt64) {
        guard isOpenStream(token), let due = streamTimers?.deadlineDue else { return }
        guard now >= due else {
            loop.timers.insert(.init(deadline: due, token: token, kind: .streamDeadline))
            return
        }
        streamTimers?.deadline = nil
        endStreamByServer(.timeout)
    }

    /// Ends the current stream for the server: its `onEnd` handler runs on a worker and sends the closing
    /// chunk; without one the stream is finished here and its producer hears that the client is gone.
    func endStreamByServer(_ reason: StreamEnd) {
        guard let stream, !streamEnded else { return }
        if stream.endsItself {
            context.workers.submit { stream.serverEnds(reason) }
            return
        }
        finishStream()
        context.workers.submit { stream.clientGone() }
        flush()
    }
}
