import Core
import Logging
import Storage

/// The mail and push outboxes (§5.5.3, §8): rows are written inside the request's transaction; after the
/// commit the request kicks the matching worker, which hands the queued rows to the mailer or the sender
/// and records what each did.
public final class Outboxes: Sendable {
    /// Rows handled per drain step.
    static let batch = 50

    private let mailWorker: OutboxWorker
    private let pushWorker: OutboxWorker

    init(store: any BackbeamStore, mailer: any BackbeamMailer, sender: any PushSender, retry: MailRetry, logger: Logger) {
        let worker = Locked<OutboxWorker?>(nil)
        let mailWorker = OutboxWorker(label: "quartet.backbeam.mail") {
            do {
                let mails = try store.queuedMails(limit: Self.batch, now: BackbeamClock.now())
                for mail in mails {
                    do {
                        try store.setMailState(id: mail.id, state: try mailer.deliver(mail))
                    } catch let error as StorageError {
                        throw error
                    } catch {
                        // Delivery failures are logged, never reported to the client (§8); the mail waits
                        // for its next attempt, or fails after the last one.
                        let delay = retry.delaySeconds(afterFailedAttempts: mail.attempts + 1)
                        logger.error("backbeam mail delivery failed", metadata: [
                            "outboxID": "\(mail.id)", "attempt": "\(mail.attempts + 1)", "error": "\(error)",
                            "retryInSeconds": "\(delay.map(String.init) ?? "never")"])
                        try store.mailAttemptFailed(id: mail.id, retryAt: delay.map { BackbeamClock.now() + Int64($0) * 1000 })
                        if let delay { worker.withLock { $0 }?.kick(afterSeconds: delay) }
                    }
                }
                return mails.count == Self.batch
            } catch {
                logger.error("backbeam mail outbox unreadable", metadata: ["error": "\(error)"])
                return false
            }
        }
        worker.withLock { $0 = mailWorker }
        self.mailWorker = mailWorker
        pushWorker = OutboxWorker(label: "quartet.backbeam.push") {
            do {
                let notifications = try store.pushOutbox(space: nil, channel: nil, onlyQueued: true, limit: Self.batch)
                for notification in notifications {
                    var state = "failed"
                    do { state = try sender.send(notification) } catch {
                        logger.error("backbeam push delivery failed", metadata: ["outboxID": "\(notification.id)", "error": "\(error)"])
                    }
                    try store.setPushState(id: notification.id, state: state)
                }
                return notifications.count == Self.batch
            } catch {
                logger.error("backbeam push outbox unreadable", metadata: ["error": "\(error)"])
                return false
            }
        }
    }

    /// Hands queued mails to the mailer.
    public func mailQueued() { mailWorker.kick() }

    /// Hands queued notifications to the sender.
    public func pushQueued() { pushWorker.kick() }
}

/// When a failed mail is tried again (§8): up to `maxAttempts` attempts in all, waiting `baseSeconds`,
/// then twice as long after each further failure.
public struct MailRetry: Sendable {
    /// Attempts in all: 5.
    public var maxAttempts = 5
    /// The wait after the first failure.
    public var baseSeconds: Int

    /// A policy.
    public init(maxAttempts: Int = 5, baseSeconds: Int) {
        self.maxAttempts = maxAttempts
        self.baseSeconds = baseSeconds
    }

    /// Seconds to wait after `failures` failed attempts; nil when no attempt is left.
    public func delaySeconds(afterFailedAttempts failures: Int) -> Int? {
        guard failures < maxAttempts else { return nil }
        return baseSeconds << min(max(failures - 1, 0), 20)
    }
}
