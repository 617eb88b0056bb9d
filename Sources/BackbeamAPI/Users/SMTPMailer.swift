import Foundation
import Core
import HTTP
import Logging

/// `backbeam.smtp`: the relay mails are delivered through (§8).
public struct SMTPSettings: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: String, Sendable {
        /// Plain connection upgraded with STARTTLS (refused when the server does not offer it): port 587.
        case starttls
        /// TLS from the first byte: port 465.
        case tls
        /// No encryption (a relay on the same host or network only).
        case none
    }

    /// The relay's host name.
    public var host: String
    /// Its port.
    public var port: Int
    /// STARTTLS, TLS or none.
    public var security: Security
    /// Login user; no AUTH without it.
    public var user: String?
    /// Login password.
    public var password: String?
    /// The sender of mails whose project sets no `email.from`.
    public var from: String
    /// Time limit of one delivery.
    public var timeoutSeconds: Int
    /// Wait before the second attempt; doubled for each further one (5 attempts in all).
    public var retrySeconds: Int

    static func parse(_ section: ConfigSection) throws -> SMTPSettings? {
        try section.rejectUnknownKeys(["host", "port", "security", "user", "password", "from", "timeoutSeconds", "retrySeconds"])
        guard let host = try section.string("host") else { return nil }
        let securityText = try section.string("security") ?? "starttls"
        guard let security = Security(rawValue: securityText) else {
            throw section.fail("security", "must be starttls, tls or none")
        }
        guard let from = try section.string("from"), SMTPMailer.isAddress(from) else {
            throw section.fail("from", "must be the sender's email address when smtp.host is set")
        }
        let user = try section.string("user"), password = try section.string("password")
        if (user == nil) != (password == nil) { throw section.fail("user", "user and password are set together") }
        return SMTPSettings(host: host, port: try section.int("port", security == .tls ? 465 : 587, min: 1, max: 65535),
                            security: security, user: user, password: password, from: from,
                            timeoutSeconds: try section.int("timeoutSeconds", 30, min: 1, max: 600),
                            retrySeconds: try section.int("retrySeconds", 30, min: 0, max: 86_400))
    }
}

/// Delivers mails through an SMTP relay (RFC 5321): EHLO, STARTTLS when configured (the certificate checked
/// against the host), AUTH PLAIN when a user is set, one MAIL/RCPT/DATA per mail, a UTF-8 plain-text body in
/// Base64. Each delivery is also logged as by the default mailer (never the body).
public struct SMTPMailer: BackbeamMailer {
    let settings: SMTPSettings
    let logger: Logger

    /// A mailer over `settings`.
    public init(settings: SMTPSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Why a delivery failed (retried by the outbox).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    public func deliver(_ mail: MailMessage) throws -> String {
        let from = mail.sender ?? settings.from
        guard Self.isAddress(from), Self.isAddress(mail.recipient) else {
            throw Failure(description: "an address holds characters SMTP cannot carry")
        }
        let connection = try OutboundConnection(host: settings.host, port: settings.port, tls: settings.security == .tls,
                                                timeoutSeconds: settings.timeoutSeconds)
        defer { connection.close() }
        _ = try reply(connection, expect: 220)
        var features = try command(connection, "EHLO quartet", expect: 250)
        if settings.security == .starttls {
            guard features.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                throw Failure(description: "the relay does not offer STARTTLS")
            }
            _ = try command(connection, "STARTTLS", expect: 220)
            try connection.startTLS()
            features = try command(connection, "EHLO quartet", expect: 250)
        }
        if let user = settings.user, let password = settings.password {
            let token = Base64.encode([0] + Array(user.utf8) + [0] + Array(password.utf8))
            _ = try command(connection, "AUTH PLAIN " + token, expect: 235)
        }
        _ = try command(connection, "MAIL FROM:<\(from)>", expect: 250)
        _ = try command(connection, "RCPT TO:<\(mail.recipient)>", expect: 250, 251)
        _ = try command(connection, "DATA", expect: 354)
        try connection.write(Array(Self.message(mail, from: from).utf8))
        _ = try command(connection, ".", expect: 250)
        _ = try? command(connection, "QUIT", expect: 221)
        logger.info("backbeam mail", metadata: ["to": "\(mail.recipient)", "subject": "\(mail.subject)", "kind": "\(mail.kind)",
                                                "outboxID": "\(mail.id)", "via": "smtp"])
        return "sent"
    }

    private func command(_ connection: OutboundConnection, _ line: String, expect codes: Int...) throws -> [String] {
        try connection.write(Array((line + "\r\n").utf8))
        return try reply(connection, expectAny: codes)
    }

    private func reply(_ connection: OutboundConnection, expect code: Int) throws -> [String] {
        try reply(connection, expectAny: [code])
    }

    /// A whole (possibly multi-line) reply; its text lines, or a failure naming the code.
    private func reply(_ connection: OutboundConnection, expectAny codes: [Int]) throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try connection.readLine()
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)) else { throw Failure(description: "malformed SMTP reply") }
            lines.append(String(line.dropFirst(4)))
            if line.utf8.count == 3 || line.dropFirst(3).first == " " {
                guard codes.contains(code) else { throw Failure(description: "the relay answered \(line.prefix(200))") }
                return lines
            }
            guard lines.count < 100 else { throw Failure(description: "SMTP reply too long") }
        }
    }

    /// Header and Base64 body, CRLF line ends; Base64 lines never start with `.`, so no dot-stuffing is needed.
    static func message(_ mail: MailMessage, from: String) -> String {
        var out = "From: \(from)\r\nTo: \(mail.recipient)\r\nSubject: \(encodedHeader(mail.subject))\r\n"
        out += "Date: \(HTTPDate.format(epochSeconds: Int(mail.createdAt / 1000)).replacingOccurrences(of: " GMT", with: " +0000"))\r\n"
        out += "Message-ID: <\(RandomID.hex(16))@quartet>\r\nMIME-Version: 1.0\r\n"
        out += "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        let body = Base64.encode(Array(mail.body.replacingLineEnds().utf8))
        var i = body.startIndex
        while i < body.endIndex {
            let end = body.index(i, offsetBy: 76, limitedBy: body.endIndex) ?? body.endIndex
            out += body[i..<end] + "\r\n"
            i = end
        }
        return out
    }

    /// A header value: as is when printable ASCII, else an RFC 2047 encoded word.
    static func encodedHeader(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return "=?UTF-8?B?" + Base64.encode(Array(text.utf8.filter { $0 != 13 && $0 != 10 })) + "?="
    }

    /// An address safe in an SMTP command and a header: one `@`, no spaces, controls, `<`, `>`, or non-ASCII.
    static func isAddress(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count <= 254 && bytes.filter { $0 == UInt8(ascii: "@") }.count == 1
            && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
    }
}

private extension String {
    /// Every line end as CRLF.
    func replacingLineEnds() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .joined(separator: "\r\n")
    }
}
