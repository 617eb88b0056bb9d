import Auth
import Core
import HTTP

/// Credential resolution of spec §3.2, including the JS SDK body envelope (§2.5) and HTTP Basic (§3.1).
extension ParseApp {
    struct Credentials {
        var appId: String?
        var masterKey: String?
        var sessionToken: JSON?
        var installationId: String?
        var clientVersion: String?
        var contentType: String?
    }

    /// Fills `ctx.caller` and friends; removes envelope keys from `body`. Throws 403/209/107.
    func resolveCredentials(_ ctx: ParseContext, body: inout JSONObject, segments: [String]) throws {
        let h = ctx.http.headers
        var c = Credentials()
        c.appId = h["X-Parse-Application-Id"]
        c.masterKey = h["X-Parse-Master-Key"]
        c.sessionToken = h["X-Parse-Session-Token"].map { .string($0) }
        c.installationId = h["X-Parse-Installation-Id"]
        c.clientVersion = h["X-Parse-Client-Version"]
        var clientKey = h["X-Parse-Client-Key"], restKey = h["X-Parse-REST-API-Key"]
        var jsKey = h["X-Parse-Javascript-Key"]
        let windowsKey = h["X-Parse-Windows-Key"]
        if let auth = h["Authorization"], let basic = BasicCredentials(authorization: auth), basic.name == appId {
            c.appId = basic.name
            if basic.password.hasPrefix("javascript-key=") {
                jsKey = String(basic.password.dropFirst("javascript-key=".count))
            } else {
                c.masterKey = basic.password
            }
        }
        if let context = h["X-Parse-Cloud-Context"] {
            guard let parsed = try? JSONParser.parse(context), parsed.objectValue != nil else {
                throw ParseError(107, "Invalid object for context.")
            }
        }
        // Always removed, whether or not the envelope is used (spec §2.5).
        body["_noBody"] = nil
        body["_RevocableSession"] = nil
        if c.appId != appId {
            // The JS SDK puts credentials in the body.
            guard body["_ApplicationId"]?.stringValue == appId,
                  h["X-Parse-Master-Key"] == nil || Self.keyMatches(h["X-Parse-Master-Key"], digest: masterKeyDigest) else {
                throw ParseError.unauthorized
            }
            c.appId = appId
            jsKey = body["_JavaScriptKey"]?.stringValue ?? ""
            if let v = body["_ClientVersion"]?.stringValue { c.clientVersion = v }
            if let v = body["_InstallationId"]?.stringValue { c.installationId = v }
            if let v = body["_SessionToken"] { c.sessionToken = v }
            if let v = body["_MasterKey"] { c.masterKey = v.stringValue }
            if let v = body["_ContentType"]?.stringValue { c.contentType = v }
            if let ctxValue = body["_context"] {
                var ok = ctxValue.objectValue != nil
                if !ok, let s = ctxValue.stringValue, let p = try? JSONParser.parse(s), p.objectValue != nil { ok = true }
                if !ok { throw ParseError(107, "Invalid object for context.") }
            }
            for k in ["_ApplicationId", "_JavaScriptKey", "_ClientVersion", "_InstallationId", "_SessionToken",
                      "_MasterKey", "_context", "_ContentType"] { body[k] = nil }
            // Header client keys do not apply to an envelope request.
            clientKey = nil
            restKey = nil
        }
        ctx.installationId = c.installationId
        ctx.clientVersion = c.clientVersion
        ctx.contentType = c.contentType ?? h["Content-Type"]

        let clientIP = clientAddress(ctx.http)
        if Self.keyMatches(c.masterKey, digest: masterKeyDigest) {
            guard IPRange.any(config.masterKeyIps, contains: clientIP) else {
                logger.warning("master key refused: client address not in parse.masterKeyIps")
                throw ParseError.unauthorized
            }
            ctx.caller = .master
        } else if let ro = readOnlyMasterKeyDigest, Self.keyMatches(c.masterKey, digest: ro) {
            guard IPRange.any(config.masterKeyIps, contains: clientIP) else { throw ParseError.unauthorized }
            ctx.caller = Caller(level: .readOnlyMaster)
        } else if config.requiresClientKey {
            let pairs: [(String?, String?)] = [(clientKey, config.clientKey), (restKey, config.restAPIKey),
                                               (jsKey, config.javascriptKey), (windowsKey, config.dotNetKey)]
            let ok = pairs.contains { given, expected in
                guard let given, let expected else { return false }
                return KeyCheck.matches(given, expected)
            }
            if !ok { throw ParseError.unauthorized }
        }

        // Session token: ignored on /login; /sessions/me checks it itself (spec §10.1).
        if let tokenValue = c.sessionToken {
            guard let token = tokenValue.stringValue else { throw ParseError.invalidSessionToken }
            ctx.sessionToken = token
            let isLogin = segments == ["login"]
            let isSessionsMe = segments == ["sessions", "me"]
            if !isLogin && !isSessionsMe && !ctx.caller.readsAsMaster {
                guard let session = try lookupSession(token) else { throw ParseError.invalidSessionToken }
                ctx.caller = session
            } else if !isLogin && !isSessionsMe, ctx.caller.readsAsMaster, let session = try lookupSession(token) {
                // Master with a token: keep master rights but know the user (for own-session answers).
                ctx.caller.userId = session.userId
                ctx.caller.sessionId = session.sessionId
            }
        }
    }

    /// The caller for a session token, or nil when unknown, expired, or its user is gone.
    func lookupSession(_ token: String) throws -> Caller? {
        guard !token.isEmpty, token.utf8.count <= 256 else { return nil }
        let hash = TokenHasher.hash(token)
        return try store.read { tx -> Caller? in
            guard let session = try tx.find("_Session", path: ["_token_hash"], equals: .text(hash), limit: 1).first,
                  let userId = session.data["user"]?["objectId"]?.stringValue else { return nil }
            if let exp = session.data["expiresAt"]?["iso"]?.stringValue, exp <= ParseDate.now() { return nil }
            guard let user = try tx.object("_User", userId) else { return nil }
            var caller = Caller(level: .user, userId: userId, sessionId: session.objectId)
            caller.isAnonymousUser = user.data["authData"]?["anonymous"].map { !$0.isNull } ?? false
            caller.roles = try tx.roleNames(forUser: userId)
            return caller
        }
    }

    /// The client address: the TCP peer, or the right-most untrusted `X-Forwarded-For` entry when the
    /// peer is a trusted proxy (spec §3.3).
    func clientAddress(_ req: HTTPRequest) -> String {
        addresses.clientAddress(of: req)
    }
}

import Foundation
import Auth
