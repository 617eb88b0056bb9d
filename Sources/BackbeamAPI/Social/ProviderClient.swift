import Foundation
import Core
import HTTP
import Logging

/// A social identity as its provider vouched for it (§4.7, §5.4.6).
public struct SocialIdentity: Sendable, Equatable {
    /// The provider's user id.
    public var id: String
    /// The login data (`id` first), as strings, keys without the `login_<short>_` prefix; missing values
    /// left out.
    public var loginData: [(key: String, value: String)]

    public static func == (a: SocialIdentity, b: SocialIdentity) -> Bool {
        a.id == b.id && a.loginData.elementsEqual(b.loginData, by: ==)
    }
}

/// Asks a provider who a token belongs to (§5.4.6): never trusts identity data sent by the client. Every
/// failure (network, HTTP error, unparsable reply, no id, provider not configured) is the provider's error
/// status (`FacebookError`, ...); the cause goes to the log only.
public struct ProviderClient: Sendable {
    let timeoutSeconds: Int
    let logger: Logger

    /// A client with the given time limit per call.
    public init(timeoutSeconds: Int, logger: Logger) {
        self.timeoutSeconds = timeoutSeconds
        self.logger = logger
    }

    /// The identity behind the credential parameters of `provider`.
    func identity(_ provider: SocialProvider, settings: ProviderSettings, parameters: BackbeamParameters) throws -> SocialIdentity {
        let url = settings.url ?? provider.defaultURL
        var headers: [(String, String)] = [("Accept", provider == .linkedin ? "application/xml" : "application/json")]
        var target = url
        switch provider {
        case .twitter:
            let token = try Self.required(parameters, "oauth_token"), secret = try Self.required(parameters, "oauth_token_secret")
            guard let consumerKey = settings.consumerKey, let consumerSecret = settings.consumerSecret else {
                throw fail(provider, "no Twitter consumer key and secret are configured")
            }
            headers.append(("Authorization", OAuth1.authorization(method: "GET", url: url, consumerKey: consumerKey,
                                                                  consumerSecret: consumerSecret, token: token, tokenSecret: secret)))
        case .facebook, .googleplus:
            target += (url.contains("?") ? "&" : "?") + "access_token=" + OAuth1.encode(try Self.required(parameters, "access_token"))
        case .linkedin:
            target += (url.contains("?") ? "&" : "?") + "oauth2_access_token=" + OAuth1.encode(try Self.required(parameters, "access_token"))
        case .github:
            headers.append(("Authorization", "token " + (try Self.required(parameters, "access_token"))))
        }
        let response: OutboundResponse
        do {
            response = try OutboundHTTP.request("GET", target, headers: headers, timeoutSeconds: timeoutSeconds)
        } catch {
            throw fail(provider, "the provider could not be reached (\(error))")
        }
        guard (200..<300).contains(response.status) else { throw fail(provider, "the provider answered \(response.status)") }
        guard let identity = ProviderReplies.identity(provider, body: response.body) else {
            throw fail(provider, "the provider's answer has no user id")
        }
        try checkAudience(provider, settings: settings, parameters: parameters)
        return identity
    }

    /// With the project's app credentials configured, the token must have been issued to that app
    /// (§5.4.6): Facebook's `debug_token` names the app and the validity, Google's `tokeninfo` the audience.
    private func checkAudience(_ provider: SocialProvider, settings: ProviderSettings, parameters: BackbeamParameters) throws {
        let token = parameters.value("access_token") ?? ""
        let expected: String, url: String
        switch provider {
        case .facebook:
            guard let appId = settings.appId, let appSecret = settings.appSecret else { return }
            let base = settings.tokenCheckUrl ?? provider.defaultTokenCheckURL ?? ""
            url = base + (base.contains("?") ? "&" : "?") + "input_token=" + OAuth1.encode(token)
                + "&access_token=" + OAuth1.encode(appId + "|" + appSecret)
            expected = appId
        case .googleplus:
            guard let clientId = settings.clientId else { return }
            let base = settings.tokenCheckUrl ?? provider.defaultTokenCheckURL ?? ""
            url = base + (base.contains("?") ? "&" : "?") + "access_token=" + OAuth1.encode(token)
            expected = clientId
        default:
            return
        }
        let response: OutboundResponse
        do {
            response = try OutboundHTTP.request("GET", url, headers: [("Accept", "application/json")], timeoutSeconds: timeoutSeconds)
        } catch {
            throw fail(provider, "the token check could not be reached (\(error))")
        }
        guard (200..<300).contains(response.status), let json = try? JSONParser.parse(response.body) else {
            throw fail(provider, "the token check answered \(response.status)")
        }
        let issuedTo: String?
        if provider == .facebook {
            let data = json["data"]
            issuedTo = data?["is_valid"]?.boolValue == true ? (data?["app_id"]?.stringValue ?? data?["app_id"]?.numberValue?.text) : nil
        } else {
            issuedTo = json["aud"]?.stringValue ?? json["azp"]?.stringValue ?? json["issued_to"]?.stringValue
        }
        guard issuedTo == expected else { throw fail(provider, "the token was issued to another app") }
    }

    /// A credential parameter, else 400 `MissingParameters`.
    static func required(_ parameters: BackbeamParameters, _ name: String) throws -> String {
        guard let value = parameters.value(name), !value.isEmpty else {
            throw BackbeamError(.missingParameters, "The \(name) parameter is missing")
        }
        return value
    }

    private func fail(_ provider: SocialProvider, _ cause: String) -> BackbeamError {
        logger.warning("backbeam social login refused", metadata: ["provider": "\(provider.rawValue)", "cause": "\(cause)"])
        return BackbeamError(provider.errorStatus, "The \(provider.rawValue) credentials could not be verified")
    }
}

/// Reads the identity out of each provider's answer (§4.7).
enum ProviderReplies {
    static func identity(_ provider: SocialProvider, body: [UInt8]) -> SocialIdentity? {
        if provider == .linkedin { return linkedIn(body) }
        guard let json = try? JSONParser.parse(body), json.objectValue != nil else { return nil }
        func text(_ value: JSON?) -> String? {
            switch value {
            case .string(let s)?: return s.isEmpty ? nil : s
            // Numeric ids are strings on the wire (iOS requires strings).
            case .number(let n)?: return n.description
            default: return nil
            }
        }
        let pairs: [(String, String?)]
        switch provider {
        case .twitter:
            pairs = [("id", text(json["id_str"]) ?? text(json["id"])), ("screen_name", text(json["screen_name"])),
                     ("name", text(json["name"])), ("image", text(json["profile_image_url"]))]
        case .facebook:
            pairs = [("id", text(json["id"])), ("name", text(json["name"])), ("link", text(json["link"]))]
        case .googleplus:
            pairs = [("id", text(json["id"])), ("name", text(json["displayName"])), ("image", text(json["image"]?["url"]))]
        case .github:
            pairs = [("id", text(json["id"])), ("name", text(json["name"])), ("login", text(json["login"]))]
        case .linkedin:
            return nil
        }
        return make(pairs)
    }

    /// LinkedIn's v1 XML person: `<person><id>..</id><first-name>..</first-name>...</person>`.
    static func linkedIn(_ body: [UInt8]) -> SocialIdentity? {
        let xml = String(decoding: body, as: UTF8.self)
        func element(_ name: String) -> String? {
            guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
            else { return nil }
            let raw = String(xml[open.upperBound..<close.lowerBound])
            let text = raw.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            return text.isEmpty ? nil : text
        }
        return make([("id", element("id")), ("first_name", element("first-name")), ("last_name", element("last-name")),
                     ("headline", element("headline"))])
    }

    private static func make(_ pairs: [(String, String?)]) -> SocialIdentity? {
        guard let id = pairs.first?.1, !id.isEmpty, id.utf8.count <= 255 else { return nil }
        return SocialIdentity(id: id, loginData: pairs.compactMap { key, value in value.map { (key, $0) } })
    }
}
