import Foundation
import Logging

/// Delivers the mails of the outbox (§8). Called after the transaction that queued the mail committed,
/// off the request path; returns the state to record (`logged`, `sent`). A throw records `failed` and is
/// logged, never reported to the client.
public protocol BackbeamMailer: Sendable {
    /// Delivers one mail.
    func deliver(_ mail: MailMessage) throws -> String
}

/// The default mailer: one log line per mail (recipient, subject, kind; the body, which holds the code,
/// only at debug level). The outbox row stays readable through the admin API (§5.6).
public struct LogMailer: BackbeamMailer {
    let logger: Logger

    /// A mailer writing to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    public func deliver(_ mail: MailMessage) throws -> String {
        logger.info("backbeam mail", metadata: ["to": "\(mail.recipient)", "subject": "\(mail.subject)", "kind": "\(mail.kind)",
                                                "outboxID": "\(mail.id)"])
        logger.debug("backbeam mail body", metadata: ["outboxID": "\(mail.id)", "body": "\(mail.body)"])
        return "logged"
    }
}

/// The default templates of §8, with `{{code}}`, `{{link}}`, `{{email}}` and `{{project}}` filled in.
enum MailTemplates {
    /// The mail of `kind` (`verification` or `lostpassword`) to `email`, carrying `code`.
    static func message(kind: CodeKind, email: String, code: String, project: String, env: BackbeamEnvironment,
                        publicUrl: String?, from: String?, templates: [String: MailTemplate] = [:]) -> MailMessage {
        let page = kind == .verification ? "confirm" : "reset"
        let link = publicUrl.map { "\($0)/backbeam/\(project)/\(env.rawValue)/user/email/\(page)?code=\(code)" }
        let kindName = kind == .verification ? "verification" : "lostpassword"
        if let template = templates[kindName] {
            func fill(_ text: String) -> String {
                // Without publicUrl a link cannot be made: {{link}} becomes the code.
                text.replacingOccurrences(of: "{{code}}", with: code).replacingOccurrences(of: "{{link}}", with: link ?? code)
                    .replacingOccurrences(of: "{{email}}", with: email).replacingOccurrences(of: "{{project}}", with: project)
            }
            return MailMessage(recipient: email, sender: from, kind: kindName, subject: fill(template.subject), body: fill(template.text))
        }
        switch kind {
        case .verification:
            var body = "Hello,\n\nplease confirm the email address \(email) for \(project).\n\n"
            if let link { body += "Open this link to confirm it:\n\(link)\n\n" }
            body += "Confirmation code: \(code)\n\nIf you did not sign up, ignore this message.\n"
            return MailMessage(recipient: email, sender: from, kind: "verification", subject: "Confirm your email address for \(project)",
                               body: body)
        case .reset:
            var body = "Hello,\n\nsomeone asked to reset the password of \(email) for \(project).\n\n"
            if let link { body += "Open this link to choose a new password:\n\(link)\n\n" }
            body += "Reset code: \(code)\n\nThe code works for 24 hours. If you did not ask for it, ignore this message.\n"
            return MailMessage(recipient: email, sender: from, kind: "lostpassword", subject: "Reset your password for \(project)", body: body)
        }
    }
}
