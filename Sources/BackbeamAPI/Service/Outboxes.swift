import Logging

/// The mail and push outboxes (§5.5.3, §8): rows are written inside the request's transaction; after the
/// commit the request kicks the matching worker, which hands the queued rows to the mailer or the sender
/// and records what each did.
public final class Outboxes: Sendable {
    /// Rows handled per drain step.
    static let batch = 50

    private let mailWorker: OutboxWorker
    private let pushWorker: OutboxWorker

    init(store: any BackbeamStore, mailer: any BackbeamMailer, sender: any PushSender, logger: Logger) {
        mailWorker = OutboxWorker(label: "quartet.backbeam.mail") {
            do {
                let mails = try store.queuedMails(limit: Self.batch)
                for mail in mails {
                    var state = "failed"
                    do { state = try mailer.deliver(mail) } catch {
                        logger.error("backbeam mail delivery failed", metadata: ["outboxID": "\(mail.id)", "error": "\(error)"])
                    }
                    try store.setMailState(id: mail.id, state: state)
                }
                return mails.count == Self.batch
            } catch {
                logger.error("backbeam mail outbox unreadable", metadata: ["error": "\(error)"])
                return false
            }
        }
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
