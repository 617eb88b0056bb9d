import Foundation

/// Password checks under way, by client address and credentials (the SHA-256 of `name:password`), so that
/// the same credentials sent at once on many connections of one client are checked once: the other calls
/// wait for that check and take its verdict.
///
/// Without it each call would reserve an attempt with `FailedLoginLimiter.begin`, and a client whose pool of
/// connections sends the right password at the moment the remembered success expires would have all but
/// the first `maxFailures` of them refused as if they were guessing. A shared check is one attempt: a wrong
/// password sent at once on many connections counts as one failure, which is what it is.
///
/// Holds one entry per distinct check under way (at most one per calling thread), removed when it ends.
final class SharedPasswordChecks: @unchecked Sendable {
    struct Key: Hashable {
        let clientAddress: String
        let digest: [UInt8]
    }

    private final class Check {
        var verdict: AdminVerdict?
    }

    private let condition = NSCondition()
    private var checks: [Key: Check] = [:]

    /// The verdict of `check` for `key`: made here, or taken from the same check already under way on
    /// another thread, which this one waits for (a password check is made on a worker, as bcrypt itself
    /// takes tens of milliseconds).
    func verdict(for key: Key, _ check: () -> AdminVerdict) -> AdminVerdict {
        condition.lock()
        if let running = checks[key] {
            while true {
                if let verdict = running.verdict {
                    condition.unlock()
                    return verdict
                }
                condition.wait()
            }
        }
        let mine = Check()
        checks[key] = mine
        condition.unlock()
        let verdict = check()
        condition.lock()
        mine.verdict = verdict
        checks[key] = nil
        condition.broadcast()
        condition.unlock()
        return verdict
    }
}
