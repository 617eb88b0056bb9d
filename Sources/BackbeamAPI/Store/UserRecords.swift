/// The kinds of single-use codes (§5.4.5): email verification (valid 7 days) and password reset (24 hours).
public enum CodeKind: String, Sendable {
    /// Proves access to the mailbox; mailed on signup or email change in `optional`/`mandatory` mode.
    case verification
    /// Mailed by `lostpassword`; also proves access to the mailbox.
    case reset
}

/// A code issued inside a write: only its SHA-256 is stored.
public struct IssuedCode: Sendable, Equatable {
    /// Hex SHA-256 of the code.
    public var hash: String
    /// Its kind.
    public var kind: CodeKind
    /// When it stops working (ms).
    public var expiresAt: Int64

    /// An issued code.
    public init(hash: String, kind: CodeKind, expiresAt: Int64) {
        self.hash = hash
        self.kind = kind
        self.expiresAt = expiresAt
    }
}

/// One email as the mailer sees it (§8), written to the outbox in the transaction that issued its code.
public struct MailMessage: Sendable, Equatable {
    /// Outbox row id (0 until stored).
    public var id: Int64 = 0
    /// The recipient address.
    public var recipient: String
    /// The sender address (the project's `email.from`); nil for the mailer's own.
    public var sender: String?
    /// `verification` or `lostpassword`.
    public var kind: String
    /// Subject line.
    public var subject: String
    /// Plain-text body.
    public var body: String
    /// When it was queued (ms).
    public var createdAt: Int64 = 0
    /// `queued`, `logged`, `sent` or `failed`.
    public var state: String = "queued"
    /// Delivery attempts that failed so far.
    public var attempts = 0

    /// A message.
    public init(recipient: String, sender: String? = nil, kind: String, subject: String, body: String) {
        self.recipient = recipient
        self.sender = sender
        self.kind = kind
        self.subject = subject
        self.body = body
    }
}

/// What a user write issues besides the object change, in the same transaction (§3.7, §5.4, §8): a session,
/// a code, the mail carrying the code.
public struct UserGrant: Sendable, Equatable {
    /// SHA-256 (hex) of a new session code for the written user.
    public var sessionHash: String?
    /// A code for the written user.
    public var code: IssuedCode?
    /// The mail that carries the code.
    public var mail: MailMessage?

    /// Nothing issued.
    public init(sessionHash: String? = nil, code: IssuedCode? = nil, mail: MailMessage? = nil) {
        self.sessionHash = sessionHash
        self.code = code
        self.mail = mail
    }

    /// True when nothing is issued.
    public var isEmpty: Bool { sessionHash == nil && code == nil && mail == nil }
}

/// The login data of a user found by email (§5.4.2).
public struct UserLogin: Sendable, Equatable {
    /// The user's object id.
    public var id: String
    /// The bcrypt hash, nil for a user without a password.
    public var passwordHash: String?
    /// Whether the email was verified.
    public var verified: Bool
}

/// The redemption of a code (`verify`, `setpassword`, the email pages).
public struct CodeRedemption: Sendable {
    /// SHA-256 (hex) of the code presented.
    public var codeHash: String
    /// The kinds accepted.
    public var kinds: [CodeKind]
    /// A new password hash to set (setpassword): all other sessions of the user are revoked.
    public var passwordHash: String?
    /// A new session to open, if any.
    public var sessionHash: String?
    /// The server clock (ms).
    public var now: Int64

    /// A redemption.
    public init(codeHash: String, kinds: [CodeKind], passwordHash: String? = nil, sessionHash: String?, now: Int64) {
        self.codeHash = codeHash
        self.kinds = kinds
        self.passwordHash = passwordHash
        self.sessionHash = sessionHash
        self.now = now
    }
}

/// A social identity verified with its provider (§5.4.6), and the session to open.
public struct SocialLogin: Sendable {
    /// Provider short name: `tw`, `fb`, `gp`, `ln`, `gh`.
    public var provider: String
    /// The provider's user id.
    public var providerID: String
    /// The `login_<short>_<key>` values, in order, without the prefix (`id`, `name`, ...).
    public var loginData: [(key: String, value: String)]
    /// The user the request's `auth` identifies, if any.
    public var authUser: String?
    /// SHA-256 (hex) of the session code to open.
    public var sessionHash: String
    /// The server clock (ms).
    public var now: Int64
    /// Entity limits (a new user may be the first object of `user`).
    public var limits: ModelLimits

    /// A social login.
    public init(provider: String, providerID: String, loginData: [(key: String, value: String)], authUser: String?,
                sessionHash: String, now: Int64, limits: ModelLimits) {
        self.provider = provider
        self.providerID = providerID
        self.loginData = loginData
        self.authUser = authUser
        self.sessionHash = sessionHash
        self.now = now
        self.limits = limits
    }
}

/// What a social login did (§5.4.6).
public enum SocialOutcome: Sendable, Equatable {
    /// A new user holding the identity (201 `Success`).
    case created(String)
    /// The identity's user logged in (200 `UserAlreadyExists`).
    case returning(String)
    /// The identity linked to the `auth` user (200 `UserAlreadyExists`).
    case linked(String)
    /// The identity belongs to another user than the `auth` one (400 `IdentityAlreadyLinked`).
    case linkedElsewhere
}
