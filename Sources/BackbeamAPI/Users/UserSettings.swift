import Core

/// Email confirmation modes (§5.4.1).
public enum EmailConfirmation: String, Sendable {
    /// No verification mail.
    case none
    /// The email is the login email at once; a verification code is mailed.
    case optional
    /// A verification code is mailed; the email logs in only after verification.
    case mandatory
}

/// The social providers of §5.4.6, by the path segment of `/user/<provider>/signup`.
public enum SocialProvider: String, Sendable, CaseIterable {
    case twitter, facebook, googleplus, linkedin, github

    /// The short name of login data keys and `this in` identities (§4.7).
    public var short: String {
        switch self {
        case .twitter: return "tw"
        case .facebook: return "fb"
        case .googleplus: return "gp"
        case .linkedin: return "ln"
        case .github: return "gh"
        }
    }

    /// The error status of a provider failure.
    var errorStatus: BackbeamStatus {
        switch self {
        case .twitter: return .twitterError
        case .facebook: return .facebookError
        case .googleplus: return .googlePlusError
        case .linkedin: return .linkedInError
        case .github: return .gitHubError
        }
    }

    /// The provider's endpoint that answers who the token belongs to (the credential goes in the query
    /// string or a header, §5.4.6).
    public var defaultURL: String {
        switch self {
        case .twitter: return "https://api.twitter.com/1.1/account/verify_credentials.json"
        case .facebook: return "https://graph.facebook.com/me"
        case .googleplus: return "https://www.googleapis.com/plus/v1/people/me"
        case .linkedin: return "https://api.linkedin.com/v1/people/~:(id,first-name,last-name,headline)"
        case .github: return "https://api.github.com/user"
        }
    }

    /// The endpoint that tells whom a token was issued to, for the providers that have one.
    var defaultTokenCheckURL: String? {
        switch self {
        case .facebook: return "https://graph.facebook.com/debug_token"
        case .googleplus: return "https://www.googleapis.com/oauth2/v3/tokeninfo"
        default: return nil
        }
    }
}

/// Settings of one social provider: the endpoint (tests point it at a local fake), Twitter's OAuth 1.0a
/// consumer key and secret, and the app credentials that make the server check a token was issued to the
/// project's own app (Facebook `appId`/`appSecret` through `debug_token`, Google `clientId` through
/// `tokeninfo`, §5.4.6).
public struct ProviderSettings: Sendable, Equatable {
    /// The endpoint URL (`http://` or `https://`), without the credential parameter.
    public var url: String?
    /// Twitter consumer key.
    public var consumerKey: String?
    /// Twitter consumer secret.
    public var consumerSecret: String?
    /// Facebook app id.
    public var appId: String?
    /// Facebook app secret.
    public var appSecret: String?
    /// Google OAuth client id.
    public var clientId: String?
    /// The endpoint that tells whom a token was issued to (Facebook `debug_token`, Google `tokeninfo`).
    public var tokenCheckUrl: String?

    /// Nothing set.
    public init(url: String? = nil, consumerKey: String? = nil, consumerSecret: String? = nil, appId: String? = nil,
                appSecret: String? = nil, clientId: String? = nil, tokenCheckUrl: String? = nil) {
        self.url = url
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.appId = appId
        self.appSecret = appSecret
        self.clientId = clientId
        self.tokenCheckUrl = tokenCheckUrl
    }

    /// These settings with the unset ones taken from `fallback`.
    func over(_ fallback: ProviderSettings?) -> ProviderSettings {
        ProviderSettings(url: url ?? fallback?.url, consumerKey: consumerKey ?? fallback?.consumerKey,
                         consumerSecret: consumerSecret ?? fallback?.consumerSecret, appId: appId ?? fallback?.appId,
                         appSecret: appSecret ?? fallback?.appSecret, clientId: clientId ?? fallback?.clientId,
                         tokenCheckUrl: tokenCheckUrl ?? fallback?.tokenCheckUrl)
    }

    /// The keys each provider takes.
    static func keys(_ provider: SocialProvider) -> Set<String> {
        switch provider {
        case .twitter: return ["url", "consumerKey", "consumerSecret"]
        case .facebook: return ["url", "appId", "appSecret", "tokenCheckUrl"]
        case .googleplus: return ["url", "clientId", "tokenCheckUrl"]
        case .linkedin, .github: return ["url"]
        }
    }

    /// `social` as configured: `{<provider>: {url, ...}}`.
    static func parse(_ section: ConfigSection) throws -> [SocialProvider: ProviderSettings] {
        try section.rejectUnknownKeys(Set(SocialProvider.allCases.map(\.rawValue)))
        var out: [SocialProvider: ProviderSettings] = [:]
        for provider in SocialProvider.allCases where section[provider.rawValue] != nil {
            let p = try section.nested(provider.rawValue)
            try p.rejectUnknownKeys(keys(provider))
            for key in ["url", "tokenCheckUrl"] {
                if let url = try p.string(key), !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                    throw p.fail(key, "must be an http:// or https:// URL")
                }
            }
            let settings = ProviderSettings(url: try p.string("url"), consumerKey: try p.string("consumerKey"),
                                            consumerSecret: try p.string("consumerSecret"), appId: try p.string("appId"),
                                            appSecret: try p.string("appSecret"), clientId: try p.string("clientId"),
                                            tokenCheckUrl: try p.string("tokenCheckUrl"))
            if (settings.appId == nil) != (settings.appSecret == nil) {
                throw p.fail("appId", "appId and appSecret are set together")
            }
            out[provider] = settings
        }
        return out
    }
}

/// The users settings of one project (§5.4, §8, §10): confirmation mode, sender, provider overrides.
public struct UserSettings: Sendable {
    /// `email.confirmation`.
    public var confirmation: EmailConfirmation = .none
    /// `email.from`: the sender address of mails.
    public var from: String?
    /// `email.templates`: the project's own subject and text per mail kind (`verification`, `lostpassword`).
    public var templates: [String: MailTemplate] = [:]
    /// `social.<provider>`: per-project provider settings (over the global `backbeam.social`).
    public var social: [SocialProvider: ProviderSettings] = [:]

    /// The defaults.
    public init() {}

    /// `email` and `social` of a declared project.
    init(_ project: ConfigSection) throws {
        if project["email"] != nil {
            let email = try project.nested("email")
            try email.rejectUnknownKeys(["confirmation", "from", "templates"])
            if email["templates"] != nil {
                let section = try email.nested("templates")
                try section.rejectUnknownKeys(["verification", "lostpassword"])
                for kind in ["verification", "lostpassword"] where section[kind] != nil {
                    let t = try section.nested(kind)
                    try t.rejectUnknownKeys(["subject", "text"])
                    guard let subject = try t.string("subject"), let text = try t.string("text") else {
                        throw t.fail("subject", "a template has a subject and a text")
                    }
                    guard !subject.contains("\r"), !subject.contains("\n") else { throw t.fail("subject", "must be one line") }
                    templates[kind] = MailTemplate(subject: subject, text: text)
                }
            }
            if let mode = try email.string("confirmation") {
                guard let parsed = EmailConfirmation(rawValue: mode) else {
                    throw email.fail("confirmation", "must be none, optional or mandatory")
                }
                confirmation = parsed
            }
            from = try email.string("from")
            if let from, !SMTPMailer.isAddress(from) { throw email.fail("from", "must be an email address") }
        }
        if project["social"] != nil {
            social = try ProviderSettings.parse(try project.nested("social"))
        }
    }
}

/// A project's own mail: `{{code}}`, `{{link}}`, `{{email}}` and `{{project}}` are filled in (§8).
public struct MailTemplate: Sendable, Equatable {
    /// The subject line.
    public var subject: String
    /// The plain-text body.
    public var text: String
}
