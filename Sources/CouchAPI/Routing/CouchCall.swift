import Core
import HTTP

/// One Couch request after routing and authentication: what the resource handlers work with.
struct CouchCall {
    let request: HTTPRequest
    /// The method after `X-HTTP-Method-Override` (§2.1).
    let method: HTTPMethod
    let route: CouchRoute
    let credentials: Credentials
    /// What the caller may do in the addressed database (§2.8).
    var permissions: Permissions = .none
    let query: QueryParameters
    let context: CouchContext
    /// The prefix absolute URLs start with below the host (`/couch`, or "" on the root listener).
    let mount: String

    var config: CouchConfig { context.config }
    var store: any CouchStore { context.store }

    /// `{scheme}://{Host}` of the request (§1.4: absolute URLs come from the request's scheme and `Host`).
    var origin: String {
        var out: [UInt8] = []
        appendOrigin(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `origin`. The host is cut at its first space, CR or LF (`Character`s, as a `String` compares
    /// them); an ASCII value without CR or LF, every real one, is cut on its bytes, where the two agree (the
    /// only ASCII grapheme of two bytes is CR LF). Every `Location` of a write is made here.
    private func appendOrigin(to out: inout [UInt8]) {
        out.append(contentsOf: (request.isTLS ? "https://" : "http://").utf8)
        guard var host = request.headers["Host"] else {
            out.append(contentsOf: "localhost".utf8)
            return
        }
        let cut = host.withUTF8 { bytes -> Bool in
            guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D || $0 == 0x0A }) else { return false }
            out.append(contentsOf: bytes.prefix { $0 != UInt8(ascii: " ") })
            return true
        }
        if !cut { out.append(contentsOf: String(host.prefix { $0 != "\r" && $0 != "\n" && $0 != " " }).utf8) }
    }

    /// The absolute URL of `segments` below the mount, each percent-encoded as one path segment.
    func absoluteURL(_ segments: [String]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        appendOrigin(to: &out)
        out.append(contentsOf: mount.utf8)
        for segment in segments {
            out.append(UInt8(ascii: "/"))
            PathEncoding.appendSegment(segment, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The absolute URL of a document: `_design/` and `_local/` ids keep their slash, as CouchDB writes them.
    func documentURL(database: String, id: String) -> String {
        for prefix in [DocumentID.designPrefix, DocumentID.localPrefix] where id.utf8.starts(with: prefix.utf8) {
            let name = String(decoding: id.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
            return absoluteURL([database, String(prefix.dropLast()), name])
        }
        return absoluteURL([database, id])
    }

    /// Completes a response: Couch's headers on every answer, CORS, a refreshed session cookie (§2.7.3)
    /// and `WWW-Authenticate` on 401 when configured.
    func finish(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        CouchHandler.stamp(&response, request: request, context: context)
        if case .cookie(let issuedAt) = credentials.method, let name = credentials.name,
           context.authenticator.needsRefresh(issuedAt: issuedAt), !response.headers.contains("Set-Cookie"),
           let token = context.authenticator.issueToken(user: name) {
            response.headers.add("Set-Cookie", SessionCookie.setCookie(
                token: token, maxAge: config.sessionTimeout, secure: request.isTLS, sameSite: config.cookieSameSite))
        }
        return response
    }
}
